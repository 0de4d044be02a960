package reproduce

import (
	"maps"
	"math"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/experiments/stability"
	"qcnlab/model"
)

// Theorem 1 of seed 000 (section III-C): the Averaging Principle is
// algebraically the same as feeding back 3/4 Fb[n] - 1/4 Fb[n-1] without
// it. The claim runs both systems twice: open loop, on the feedback
// sequence an AP source received in a packet run (the theorem's premise:
// the same sequence), and closed loop, as stability searches of the AP and
// of N-AIMD with fb_filter = theorem1.

// theorem1Sets makes ap-n-aimd-2-sources the theorem's single-source case:
// one source on a 40 Gbps access link (a source at the bottleneck's own
// rate could never build a queue), starting at the bottleneck's 10 Gbps.
func theorem1Sets(algs string) []string {
	return []string{"sources.count=1", "sources.line_rate=40Gbps", "sources.initial_rate=10Gbps", "algorithms=" + algs}
}

// theorem1Probe records the feedback sequence each AP source receives and,
// at the run's end, replays it into System 1 (the AP, with its averaging
// after every feedback, as the theorem's System 1 has it) and System 2
// (N-AIMD fed 3/4 Fb[n] - 1/4 Fb[n-1]), both from the run's initial rate
// and parameters, and measures how far System 2's rate R[n] is from the
// AP's effective rate R_e[n] = (R1[n] + R2[n])/2.
type theorem1Probe struct{}

func (theorem1Probe) Name() string {
	return "the AP's feedback sequence, replayed into Systems 1 and 2 (Theorem 1)"
}

func (theorem1Probe) Attach(run experiments.Run, cfg *model.Config) ProbeRun {
	pr := &theorem1Run{}
	sc := *cfg.Scheme
	orig := sc.NewRP
	sc.NewRP = func(env algos.RPEnv, v algos.Values) algos.ReactionPoint {
		if pr.env == nil {
			pr.env, pr.values = &env, maps.Clone(v)
		}
		rp := orig(env, v)
		if len(pr.watched) > 0 {
			return rp // the theorem's case is one source; others are not recorded
		}
		w := &fbRecorder{ReactionPoint: rp}
		pr.watched = append(pr.watched, w)
		return w
	}
	cfg.Scheme = &sc
	return pr
}

type fbRecorder struct {
	algos.ReactionPoint
	fbs []float64
}

func (r *fbRecorder) Feedback(now algos.Time, fb algos.Feedback) {
	r.fbs = append(r.fbs, fb.Fb)
	r.ReactionPoint.Feedback(now, fb)
}

type theorem1Run struct {
	env     *algos.RPEnv
	values  algos.Values
	watched []*fbRecorder
}

func (*theorem1Run) Sample(*model.Sample) {}

func (pr *theorem1Run) Finish(*model.Summary) map[string]float64 {
	if pr.env == nil || len(pr.watched) == 0 {
		return nil
	}
	mean, worst, n := replayTheorem1(*pr.env, pr.values, pr.watched[0].fbs)
	return map[string]float64{"rel_diff_mean": mean, "rel_diff_max": worst, "feedbacks": float64(n)}
}

// replayTheorem1 feeds fbs to System 1 and System 2 and returns the mean
// and largest |R[n] - R_e[n]| / R_e[n].
func replayTheorem1(env algos.RPEnv, v algos.Values, fbs []float64) (mean, worst float64, n int) {
	ap := algos.NewAPNAIMDReactionPoint(env, v)
	v2 := maps.Clone(v)
	v2["fb_filter"] = algos.FbFilterTheorem1
	sys2 := algos.NewNAIMDReactionPoint(env, v2)
	half := int(v["averaging_packets"])
	sum := 0.0
	for _, fb := range fbs {
		ap.Feedback(0, algos.Feedback{Fb: fb})
		r1 := ap.Rate()
		for i := 0; i < half; i++ {
			ap.Transmit(0, 1500, false)
		}
		re := (r1 + ap.Rate()) / 2
		sys2.Feedback(0, algos.Feedback{Fb: fb})
		d := math.Abs(sys2.Rate()-re) / re
		sum += d
		worst = math.Max(worst, d)
	}
	if len(fbs) == 0 {
		return math.NaN(), math.NaN(), 0
	}
	return sum / float64(len(fbs)), worst, len(fbs)
}

func theorem1Rule(ev *Evidence) Outcome {
	o := Outcome{Criterion: "open loop: System 2 fed the feedback sequence of the AP run must give the AP's effective rate, mean relative difference at most 1% (the paper: identical; 1% leaves room for the clamps to [min_rate, line rate]); closed loop, under each criterion: System 2's stability boundary within ±15% of the AP's (equivalent systems), and both past N-AIMD's (more stable)"}
	seq := ev.Part("feedback sequence")
	o.Statements = append(o.Statements,
		check("System 2 fed the AP's feedback sequence: |R[n] - R_e[n]| / R_e[n], mean over the sequence", "0 (identical)",
			seq.collect(extra("rel_diff_mean", percent)), atMost(0.01)))
	if len(o.Statements) > 0 {
		o.Statements[0].Note = joinNonEmpty("; ", o.Statements[0].Note,
			"largest difference "+percent.format(seq.Mean(extra("rel_diff_max", percent)))+" over "+count.format(seq.Mean(extra("feedbacks", count)))+" feedbacks a run (mean); the algebra is exact for a law linear in Fb (algos TestTheorem1), and eq. 14's is not: its decrease is multiplicative and 25 times its increase at 5 Gbps")
	}
	ap, sys2 := ev.Search(""), ev.Search("System 2")
	for _, name := range criteriaOf(ap) {
		a, n, s := boundaryOf(ap, "ap-n-aimd", name), boundaryOf(ap, "n-aimd", name), boundaryOf(sys2, "n-aimd", name)
		cr := CriterionResult{Name: name, Statements: []Statement{
			compare("System 2's boundary over the AP's (equivalent)", "1 (equal)", s.v, a.v, ratioOf, ratio, near(1, boundaryTol)),
			compare("the AP's boundary over N-AIMD's (the AP is more stable)", "> 1", a.v, n.v, ratioOf, ratio, above(1)),
			compare("System 2's boundary over N-AIMD's (so is its equivalent)", "> 1", s.v, n.v, ratioOf, ratio, above(1)),
		}}
		cr.Statements[0].Note = "AP " + a.text + ", System 2 " + s.text + ", N-AIMD " + n.text
		if !a.found && !n.found && !s.found {
			for i := range cr.Statements {
				cr.Statements[i].Holds = nil
				cr.Statements[i].Note = "no boundary in range for any system: the criterion sees nothing here"
			}
		}
		o.Criteria = append(o.Criteria, cr)
	}
	o.Notes = "AP and N-AIMD: " + searchNotes(ap) + "; System 2: " + searchNotes(sys2)
	return o
}

// found is one algorithm's boundary under a criterion, as vals.
type found struct {
	v     vals
	text  string
	found bool
}

func boundaryOf(r *stability.Report, alg, crit string) found {
	b := r.Find(alg, crit)
	if b == nil {
		return found{v: vals{unit: seconds, xs: []ival{{math.NaN(), math.NaN()}}}, text: "none"}
	}
	m, _ := boundaryText(r, b)
	return found{v: vals{unit: seconds, xs: []ival{boundaryIval(r, b)}}, text: m, found: b.Boundary != nil}
}
