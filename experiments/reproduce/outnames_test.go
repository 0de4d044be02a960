package reproduce

import (
	"fmt"
	"path"
	"testing"

	"qcnlab/experiments/outdir"
)

// The report's files and folders bear names the journal of the output
// directory may have removed by the next report (outdir.OutputName).
func TestReportNamesAreOutputNames(t *testing.T) {
	names := []string{"report.md", "report.json"}
	for _, c := range Claims() {
		names = append(names, path.Join("plots", c.ID+"-"+slug("a correction")+".png"), path.Join("plots", c.ID+".png"))
	}
	for _, n := range names {
		if !outdir.OutputName(n, false) {
			t.Errorf("%s is not an outdir.OutputName", n)
		}
	}
	for _, folder := range []string{"plots", "runs", fmt.Sprintf("runs/%02d-%s", 12, "qcn-dumbbell")} {
		if !outdir.OutputName(folder, true) {
			t.Errorf("folder %s is not an outdir.OutputName", folder)
		}
	}
}
