// Package reproduce runs the experiments behind the seeds' figures and
// judges each paper claim from the fresh runs. A claim names its built-in
// experiments (its parts: sweeps, stability searches, probed runs), the
// settings that make them the paper's scenario, and a rule that turns the
// runs into statements: the paper's words, the paper's value, the measured
// mean over the seeds and their spread, a tolerance (two-sided where the
// paper gives a number) and whether it holds. The statements give the
// verdict (agrees, partly, differs). Where a claim reproduces only with a
// documented correction, the correction is a second run of the same claim,
// reported beside the first. The report is report.md and report.json, with
// PNG plots, in one directory.
//
// Most of its lines are the claims themselves (claims_*.go), a table of the
// papers' statements with a rule each: data more than code, which grows
// with every claim judged.
package reproduce
