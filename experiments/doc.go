// Package experiments is an experiment file and how it becomes runs: the
// TOML schema (load, --set, validate, save), the built-in experiments by
// name, the expansion of a [sweep] into runs, and the translation of a run
// into a model.Config.
//
// What is done with the runs lives beside it, one job per package:
//
//   - keys: the registry of the file's keys, each key's rule and the
//     rules that weigh keys against each other;
//   - topology: the [network] table and the topologies it names;
//   - switches: the switch model the [network] keys set (classes, buffer
//     model, PFC, RED per class, control frames, clocks);
//   - sources: a chain's [sources] and the model's sources they make;
//   - traffic: [traffic] and [[flows]], the short flows' sizes, a
//     fabric's flows;
//   - fabric: a fabric's network built from its keys, and kept;
//   - cost: the estimate of a run's memory and events, and their bounds;
//   - builtin: the library of experiments, embedded;
//   - sweep: a [sweep]'s axes and the points they make;
//   - catalog: what qcnlab offers (qcnlab list, qcnlab algos);
//   - metrics: the registry of summary metrics (name, unit, scope, missing,
//     the sweep figure's panels) and the layout of results.csv's row;
//   - batch: executing runs on a pool of workers, with progress;
//   - results: the text and JSON summaries and the output directory's files;
//   - plots: the figures;
//   - stats: a metric over the seeds of a point (mean, 95% interval);
//   - outdir: the output directory, written safely;
//   - userfile: the files a user names, read bounded and never blocked,
//     saved whole or not at all;
//   - tomltext: a TOML text as written, for errors that name the line;
//   - shard: a batch spread over machines, and the merge of its slices;
//   - stability: the search for where a loop stops being stable;
//   - reproduce: the seed papers' claims, judged from fresh runs;
//   - bench: qcnlab bench's experiment and measurement.
//
// Each key of the schema is registered once, in package keys (kind, unit,
// default, doc, where it applies, what it costs, the rule its values
// keep); the suggestions, the units of --set and of a sweep, the keys that
// do not apply, validation, the workbench's pane, qcnlab help keys and the
// README's table read it, and a test keeps it equal to the schema
// (registry_test.go). Adding a key is its schema field, its registry entry
// and the code that reads it; adding a topology is one file of package
// topology, which declares its own keys (their entries and the struct that
// holds their values) with the rest of it; adding a metric is its summary field
// and its entry in package metrics, which writes it to summary.json's
// readers, results.csv, the figures and the stability criteria.
package experiments
