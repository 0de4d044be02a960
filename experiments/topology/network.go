package topology

import "qcnlab/units"

// Network is the [network] table.
type Network struct {
	Topology  string         `toml:"topology"`
	Capacity  units.Rate     `toml:"capacity"` // of every congestible link
	Buffer    units.Bytes    `toml:"buffer"`   // of every congestible link
	FrameSize units.Bytes    `toml:"frame_size"`
	RTT       units.Duration `toml:"rtt"`
	// A parking lot chains Links congestible links; HopDelay is the
	// propagation between consecutive switches (default: rtt / 2).
	// A distribution is drawn once per link.
	Links    *int   `toml:"links"`
	HopDelay *Delay `toml:"hop_delay"`
	// FeedbackLatency is the switch's time to generate a feedback frame,
	// drawn per frame.
	FeedbackLatency Delay `toml:"feedback_latency"`
	// PFC turns on IEEE 802.1Qbb on every switch port; the thresholds
	// default to values derived per port (model/pfc.go).
	PFC     bool         `toml:"pfc"`
	PFCXoff *units.Bytes `toml:"pfc_xoff"`
	PFCXon  *units.Bytes `toml:"pfc_xon"`
	// PFCAccounting is "ingress" or "egress" (package switches); PFCDeadlockAfter
	// how long a cycle of pauses must hold to stop the run as a deadlock.
	PFCAccounting    string          `toml:"pfc_accounting,omitempty"`
	PFCDeadlockAfter *units.Duration `toml:"pfc_deadlock_after,omitempty"`
	// PFCThreshold is "static" or "dynamic", PFCAlpha the dynamic
	// threshold's share of the free shared buffer (package switches).
	PFCThreshold string   `toml:"pfc_threshold,omitempty"`
	PFCAlpha     *float64 `toml:"pfc_alpha,omitempty"`
	// Classes are every switch port's traffic classes, Scheduler how the
	// port shares itself among them (package switches).
	Classes       *int         `toml:"classes,omitempty"`
	Scheduler     string       `toml:"scheduler,omitempty"`
	StrictClasses *int         `toml:"strict_classes,omitempty"`
	ClassWeights  []int        `toml:"class_weights,omitempty"`
	DWRRQuantum   *units.Bytes `toml:"dwrr_quantum,omitempty"`
	PFCClasses    []int        `toml:"pfc_classes,omitempty"` // the lossless classes PFC pauses
	// ClassKMin, ClassKMax and ClassPMax are RED's thresholds per class,
	// for the schemes that mark by them (package switches).
	ClassKMin []units.Bytes `toml:"class_k_min,omitempty"`
	ClassKMax []units.Bytes `toml:"class_k_max,omitempty"`
	ClassPMax []float64     `toml:"class_p_max,omitempty"`
	// ControlFrames lists the schemes whose feedback and CNPs travel as
	// frames through the switch ports (package switches).
	ControlFrames []string `toml:"control_frames,omitempty"`
	// BufferModel is "per_port" or "shared" (package switches),
	// with the shared buffer's size, reserve per queue and dynamic
	// threshold.
	BufferModel  string       `toml:"buffer_model,omitempty"`
	SwitchBuffer *units.Bytes `toml:"switch_buffer,omitempty"`
	QueueReserve *units.Bytes `toml:"queue_reserve,omitempty"`
	DTAlpha      *float64     `toml:"dt_alpha,omitempty"`
	// Changes set the capacity of links during the run.
	Changes []Change `toml:"changes,omitempty"`
	// ClockPPM bounds each host's clock offset and SwitchJitter the
	// variation of a switch's forwarding latency (model/clock.go): what
	// breaks perfectly periodic senders' lock-step. Defaults in package switches.
	ClockPPM     *float64        `toml:"clock_ppm,omitempty"`
	SwitchJitter *units.Duration `toml:"switch_jitter,omitempty"`

	// Own are the keys of [network] that one topology alone reads (its
	// sizes: network.k, network.leaves, ...), as it declares them
	// (OwnKeys). A saved file writes them here, before the routing.
	Own Own `toml:"-"`

	// A fabric (package fabric): every switch egress port has Buffer.
	// Routing is "ecmp" or "spray" (Spray says how).
	Routing string `toml:"routing,omitempty"`
	Spray   string `toml:"spray,omitempty"`
}

// Change is a [[network.changes]] entry: from At on, Link (every link if
// absent) serves at Capacity.
type Change struct {
	At       *units.Duration `toml:"at"`       // required: nil only when the file left it out
	Capacity *units.Rate     `toml:"capacity"` // required
	Link     *int            `toml:"link,omitempty"`
}

// MaxHosts bounds the hosts of a fabric (a k = 64 fat-tree has 65,536),
// checked before anything is built from the file, so that what is built
// for the memory estimate stays small: below it, the estimate decides what
// fits. Each topology bounds its own sizes.
const MaxHosts = 65536

// Sized fills in the size keys the file left out, by its topology's
// defaults.
func (n *Network) Sized() {
	if t := Fabric(n.Topology); t != nil {
		t.Sized(n)
	}
}

func ptr[T any](v T) *T { return &v }
