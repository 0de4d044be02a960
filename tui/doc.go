// Package tui is qcnlab's interactive workbench: a bubbletea program that runs
// the packet-level model in the background and shows its queue and rates as
// they evolve, switches algorithms, edits parameters and saves experiments.
//
// The pieces, one job each:
//
//   - run.go: a simulation in its own goroutine, advanced by simulated-time
//     budgets and publishing snapshots (latest wins) that the UI reads on its tick;
//   - history.go: the bounded, downsampled time series a snapshot carries;
//   - model.go: the root model: state, key routing, layout;
//   - header.go, charts.go, compare.go, params.go, prompt.go, picker.go:
//     the panes, each with setSize/update/view;
//   - keys.go: every key binding, feeding the help line;
//   - styles.go: every colour and style.
//
// Simulated time reaches the UI only through tickMsg, which carries the wall
// clock time explicitly, so tests drive the model with fixed times and their
// golden files never depend on the machine's speed.
package tui
