// Package tui is qcnlab's interactive workbench: a bubbletea program that runs
// the packet-level model in the background and shows its queue and rates as
// they evolve, switches algorithms, edits parameters and saves experiments.
//
// The pieces, one job each:
//
//   - driver.go: one simulation in its own goroutine, advanced towards a
//     simulated-time target and publishing immutable snapshots (latest wins);
//   - history.go: the bounded, downsampled time series a snapshot carries;
//   - session.go: the runs on screen (one, or one per algorithm to compare);
//     build.go: what the runs are of (setup: the experiment, the edits that
//     replay on the file as opened or saved, the algorithms, the sweep
//     point), and new runs built in a tea.Cmd, numbered so that a stale
//     build is dropped;
//   - model.go: the root model: its state, the tick that turns wall time into
//     simulated time, and key routing; actions.go: what keys and panes' messages
//     do, the files read and written in a tea.Cmd whose result comes back as a
//     message (never in Update); view.go: layout and view; run.go: the program;
//   - pane.go: the shape every pane has (update, view, setSize, keyHelp) and
//     what each holds (common: its size and the shared key bindings);
//   - charts.go, compare.go, params.go, prompt.go, open.go, leave.go: the
//     panes (leave.go: the question before unsaved edits are lost);
//     header.go: the header, the algorithm bar and the stats line; plot.go: a
//     line chart over simulated time on top of ntcharts;
//   - keys.go: every key binding, feeding the help line; styles.go: every style.
//
// At about 3,400 lines it is one bubbletea program: the panes, the root
// model and the charts share the snapshots, the styles and the key map, and
// split into packages they would export all three for one user. Its files
// each have one job, as listed above.
//
// Simulated time reaches the UI only through tickMsg, which carries the wall
// clock time, so tests drive the model with explicit times and their golden
// files never depend on the machine's speed.
package tui
