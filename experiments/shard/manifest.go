package shard

import (
	"crypto/sha256"
	"encoding/hex"

	"qcnlab/model"
)

// File is the manifest a slice writes next to its outputs.
const File = "shard.json"

// Manifest says which slice of which batch a directory holds, so that
// merging can check that the slices belong together and cover the batch.
type Manifest struct {
	// Version is the qcnlab that ran the slice, as qcnlab --version
	// prints it (module version, VCS revision, Go version): merge refuses
	// slices of different versions, whose numbers may differ.
	Version    string `json:"qcnlab_version"`
	Experiment string `json:"experiment"`
	// ExperimentSHA256 is the hash of experiment.toml: the resolved
	// experiment, every default explicit.
	ExperimentSHA256 string `json:"experiment_sha256"`
	// Series is what the time series holds: "full", "none" or the
	// interval of its rows (--series); the shards of a merge agree on it.
	Series    string        `json:"series"`
	Shard     int           `json:"shard"`
	Shards    int           `json:"shards"`
	RunsTotal int           `json:"runs_total"` // of the whole batch
	Runs      []ManifestRun `json:"runs"`       // the slice's finished runs, in run order
}

// ManifestRun is one finished run of a slice: its index in the whole
// batch, its label, and its rows in the slice's timeseries.csv.gz.
type ManifestRun struct {
	Index int    `json:"index"`
	Label string `json:"label"`
	Rows  int    `json:"rows"`
	// Flows is the run's flow statistics as data (histograms, which
	// summary.json does not hold), for the merge to pool the seeds of a
	// point as the unsharded batch does.
	Flows *model.FlowHistograms `json:"flows,omitempty"`
}

// hash identifies a batch by its experiment.toml: the resolved experiment,
// every default explicit.
func hash(toml []byte) string {
	h := sha256.Sum256(toml)
	return hex.EncodeToString(h[:])
}
