package results_test

import (
	"context"
	"fmt"

	"qcnlab/experiments"
	"qcnlab/experiments/results"
)

// An experiment parsed from TOML and executed: QCN and DSM on a 10 Gbps
// dumbbell, each run summarised over [warmup, duration] (the warm-up is a
// fifth of the duration by default). The same file and seed give the same
// numbers, whatever the number of workers. With OutDir set, Execute also
// writes summary.json, results.csv and the time series there.
func ExampleExecute() {
	e, err := experiments.Parse("example.toml", []byte(`
name = "example"
duration = "200ms"
algorithms = ["qcn", "dsm"]
[network]
capacity = "10Gbps"
rtt = "100us"
[sources]
count = 4
`))
	if err != nil {
		panic(err)
	}
	res, err := results.Execute(context.Background(), e, results.Options{Workers: 2})
	if err != nil {
		panic(err)
	}
	for _, r := range res.Runs {
		b := r.Bottlenecks[0]
		fmt.Printf("%s: utilization %.2f, queue mean %.0f KB, Jain fairness %.2f\n",
			r.Algorithm, b.Utilization, b.QueueMean/1e3, *r.JainFairness)
	}
	// Output:
	// qcn: utilization 0.97, queue mean 27 KB, Jain fairness 0.98
	// dsm: utilization 1.00, queue mean 75 KB, Jain fairness 0.64
}
