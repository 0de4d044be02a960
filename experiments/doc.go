// Package experiments is an experiment file and how it becomes runs: the
// TOML schema (load, --set, validate, save), the bounds on what a file may
// ask for (cost), the built-in experiment library, the expansion of a
// [sweep] into runs, and the translation of a run into a model.Config.
//
// What is done with the runs lives beside it, one job per package:
//
//   - metrics: the registry of summary metrics (name, unit, scope, missing);
//   - batch: executing runs on a pool of workers, with progress;
//   - results: the text and JSON summaries and the output directory's files;
//   - plots: the figures;
//   - stats: a metric over the seeds of a point (mean, 95% interval);
//   - outdir: the output directory, written safely;
//   - userfile: the files a user names, read bounded and never blocked;
//   - shard: a batch spread over machines, and the merge of its slices;
//   - stability: the search for where a loop stops being stable;
//   - reproduce: the seed papers' claims, judged from fresh runs.
//
// At about 2,600 lines it is larger than its neighbours, for a reason: each
// key of the schema is read (load.go), checked (validate.go), written back
// (save.go), bounded (cost.go) and translated (config.go), and those five
// must agree key by key; they stay side by side so that a new key is added
// in one package, with its fuzz tests (save and load back) beside it.
package experiments
