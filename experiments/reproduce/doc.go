// Package reproduce runs the experiments behind the seeds' figures and
// judges each paper claim from the fresh runs: a claim names its built-in
// experiment, the settings that make it the paper's scenario, and a rule
// over the run summaries that computes the verdict (agrees, partly,
// differs). Where a claim reproduces only with a documented correction, the
// correction is a second run of the same claim, reported beside the first.
// The report is report.md and report.json, with PNG plots, in one directory.
//
// Most of its 2,600 lines are the claims themselves (claims_ref*.go), a
// table of the papers' statements with a rule each: data more than code,
// which grows with every claim judged.
package reproduce
