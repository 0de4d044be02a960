package algos

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
)

// Frame is what a congestion point sees of an arriving data frame.
type Frame struct {
	Source int  // index of the source (reaction point) that sent it
	Bytes  int  // frame length in bytes
	CPID   int  // CPID in the frame's CM-Tag (seed 003 section 3.1); 0: no tag
	Sent   Time // when the frame left its source's rate limiter (CM-Tag timestamp)
	// ECN is the IP header's congestion-experienced mark: a marking
	// congestion point (DCQCN's) sets it, and the frame carries it to the
	// receiver's notification point.
	ECN bool
}

// Feedback is a congestion notification frame travelling from a CP back to
// the source of a sampled frame. Fields a scheme does not use stay zero; each
// scheme documents the meaning and unit of Fb.
type Feedback struct {
	CPID   int     // the congestion point that generated it (1-based)
	Fb     float64 // the scheme's congestion measure (QCN: qntz_Fb, 0..63)
	Qoff   float64 // queue offset as the scheme defines it (QCN: Q_EQ - qlen, bytes)
	Qdelta float64 // queue change since the last sample (QCN: qlen - qlen_old, bytes)
	QSat   bool    // ECM's Q bit: Qdelta saturated (seed 003 section 3.1)
	Sent   Time    // timestamp copied from the sampled frame
	// Hold is how long the sender keeps it before it goes back: a
	// notification point that sends a CNP at the end of a window fills it
	// as soon as it knows the CNP is due. 0 for everything else.
	Hold Time
}

// CongestionPoint runs on one switch output queue.
type CongestionPoint interface {
	// Arrive runs the CP on a frame arriving at its queue. qlen is the
	// queue occupancy in bytes the frame leaves behind: it includes the
	// frame if the queue accepted it, not if it was dropped. Arrive
	// reports whether a feedback frame goes back to f.Source, and if so
	// fills fb (it runs for every frame, so it writes into the caller's
	// feedback instead of returning one).
	Arrive(now Time, f *Frame, qlen int, fb *Feedback) bool
}

// ReactionPoint is one source's rate limiter. The simulator reads Rate,
// Timer and CPID after every Feedback and Expire, and after a Transmit that
// reports a change.
type ReactionPoint interface {
	// Rate is the current sending rate in bits per second; 0 pauses the
	// source until a timer raises it.
	Rate() float64
	// CPID is the congestion point the rate limiter is associated with,
	// carried in the CM-Tag of every frame it sends (0: none).
	CPID() int
	// Feedback handles a feedback frame arriving at the source.
	Feedback(now Time, fb Feedback)
	// Transmit is called as each frame of bytes leaves the rate limiter;
	// backlogEmpty says the source has nothing more queued behind it. It
	// runs for every frame, so it reports whether it changed the rate, the
	// timer or the CPID, and the simulator reads them only then.
	Transmit(now Time, bytes int, backlogEmpty bool) (changed bool)
	// Timer is the earliest armed timer deadline, or Never.
	Timer() Time
	// Expire is called when the simulated clock reaches Timer().
	Expire(now Time)
}

// Network is what a scheme may derive its defaults from.
type Network struct {
	Capacity     float64 // bottleneck capacity, bits per second
	LineRate     float64 // source access link rate, bits per second
	Sources      int     // number of sources
	Buffer       float64 // bottleneck buffer, bytes
	FrameBytes   float64 // data frame size, bytes
	MaxLoopDelay Time    // largest forward + backward propagation delay of any source
}

// CPEnv is what a congestion point is built from.
type CPEnv struct {
	Network
	CPID     int        // this CP's identifier, 1-based
	Capacity float64    // the capacity of the link this queue drains into, bits per second
	Buffer   float64    // this queue's buffer, bytes
	Rand     *rand.Rand // this CP's own random stream
	// Slab, if set, is where the network's congestion points are
	// allocated together (slab.go); nil for a heap object each.
	Slab *CPSlab
}

// RPEnv is what a reaction point is built from.
type RPEnv struct {
	Network
	LineRate    float64    // C of the pseudo-code: the link the rate limiter is installed on
	InitialRate float64    // the rate the source starts at; below LineRate the limiter starts active
	Start       Time       // when the source starts sending
	Rand        *rand.Rand // this RP's own random stream
}

// Kind is the unit family of a parameter.
type Kind int

// Parameter kinds. Values are held in base units: bytes, bits per second,
// seconds, plain numbers, whole counts, 0/1 for switches, and for a choice
// the index of the chosen word in Param.Choices.
const (
	Bytes Kind = iota
	Rate
	Duration
	Number
	Count
	Switch
	Choice
)

func (k Kind) String() string {
	return [...]string{"bytes", "rate", "duration", "number", "count", "switch", "choice"}[k]
}

// Values maps parameter keys to values in base units.
type Values map[string]float64

// Param describes one tunable parameter of a scheme.
type Param struct {
	Key  string // TOML key in [params.<scheme>]
	Kind Kind
	Doc  string // one-line meaning
	// Default derives the default from the network and the parameters
	// listed before this one (so R_HAI can default to 10 x R_AI).
	Default func(n Network, v Values) float64
	Min     float64 // smallest allowed value (inclusive)
	Max     float64 // largest allowed value (inclusive); 0 means no limit
	// Choices are the words a Choice parameter takes, written as strings in
	// experiment files; its value is the index of the chosen one.
	Choices []string
}

// Unit names what a parameter's values are: its kind, or a choice's words.
func (p Param) Unit() string {
	if p.Kind == Choice {
		return strings.Join(p.Choices, "|")
	}
	return p.Kind.String()
}

// ChoiceValue is the value of the word name of a Choice parameter.
func (p Param) ChoiceValue(name string) (float64, error) {
	if i := slices.Index(p.Choices, name); i >= 0 {
		return float64(i), nil
	}
	return 0, fmt.Errorf("%q is not one of %s", name, p.choiceList())
}

// ChoiceName is the word of a Choice parameter's value x.
func (p Param) ChoiceName(x float64) string {
	if i := int(x); x == float64(i) && i >= 0 && i < len(p.Choices) {
		return p.Choices[i]
	}
	return fmt.Sprint(x)
}

func (p Param) choiceList() string {
	q := make([]string, len(p.Choices))
	for i, c := range p.Choices {
		q[i] = fmt.Sprintf("%q", c)
	}
	return strings.Join(q, ", ")
}

// Scheme is a registered congestion control scheme.
type Scheme struct {
	Name    string // registry name, e.g. "qcn"
	Display string // name for screens, e.g. "QCN"
	Ref     string // the reference: source document (seed paper) and section
	Summary string // what it is for, one line
	// Note, if set, says in one line where the defaults were made for and
	// what they do on a path they were not made for (qcnlab list and qcnlab
	// algos show it beside the summary).
	Note string
	// Uncontrolled says its sources never slow down: only drops and PFC
	// pauses limit them (none). The load-time estimate counts their frames
	// at the line rate.
	Uncontrolled bool
	Params       []Param
	// Readings says, one line each, how the scheme reads its seed where
	// the seed is ambiguous or silent (qcnlab algos NAME prints them).
	Readings []string
	// Check, if set, validates a complete set of values beyond each
	// parameter's own range; a *ParamError names the key to blame.
	Check func(n Network, v Values) error
	NewCP func(env CPEnv, v Values) CongestionPoint
	NewRP func(env RPEnv, v Values) ReactionPoint
	// QueueBand, if set, is the queue the scheme's congestion point steers
	// to, in bytes: a set point (lo == hi: QCN's Q_EQ, DSM's q0) or the band
	// it acts in (DCQCN marks between K_min and K_max). Nil: no target.
	QueueBand func(v Values) (lo, hi float64)
	// NewNP, if set, builds the notification point of one flow at its
	// receiver (notify.go); nil for the schemes whose feedback comes from
	// the switch.
	NewNP func(env NPEnv, v Values) NotificationPoint
	// NewSender, if set, builds the ACK-clocked sender of one flow (ack.go):
	// the scheme reacts to acknowledgements through the transport layer,
	// and NewRP is nil.
	NewSender func(env SenderEnv, v Values) Sender

	// What the simulation models other than the packet model make of the
	// scheme (models.go); the packet model runs every scheme.
	//
	// Fluid says seed 000's fluid model describes the scheme.
	Fluid bool
	// Convergence is the scheme's law in seed 002's convergence model; nil
	// for a scheme the model does not cover.
	Convergence *ConvergenceLaw
}

// ParamError is a bad value blamed on one parameter, by its own range or by
// a scheme's Check.
type ParamError struct {
	Key string
	Err error
}

func (e *ParamError) Error() string { return e.Key + ": " + e.Err.Error() }
func (e *ParamError) Unwrap() error { return e.Err }

// SetPoint is a QueueBand that is one parameter's value.
func SetPoint(key string) func(Values) (float64, float64) {
	return func(v Values) (float64, float64) { return v[key], v[key] }
}

// QueueTarget is the queue the scheme aims at: its set point, or the middle
// of the band it acts in (the scale a queue's spread is judged against);
// 0 if it has none.
func (s *Scheme) QueueTarget(v Values) float64 {
	if s == nil || s.QueueBand == nil {
		return 0
	}
	lo, hi := s.QueueBand(v)
	return (lo + hi) / 2
}

// Fixed returns a default that ignores the network.
func Fixed(x float64) func(Network, Values) float64 {
	return func(Network, Values) float64 { return x }
}

// Param returns the parameter with key, if the scheme has it.
func (s *Scheme) Param(key string) (Param, bool) {
	for _, p := range s.Params {
		if p.Key == key {
			return p, true
		}
	}
	return Param{}, false
}

// Resolve fills every parameter the overrides leave out with its default and
// checks the result. Unknown override keys are an error.
func (s *Scheme) Resolve(n Network, overrides Values) (Values, error) {
	for k := range overrides {
		if _, ok := s.Param(k); !ok {
			return nil, fmt.Errorf("%s has no parameter %q (it has %s)", s.Name, k, strings.Join(s.Keys(), ", "))
		}
	}
	v := make(Values, len(s.Params))
	for _, p := range s.Params {
		x, ok := overrides[p.Key]
		if !ok {
			x = p.Default(n, v)
			if p.Kind == Duration && x >= 0 && x < Never.Seconds() {
				// On the picosecond grid, as a duration written and
				// read back is: a saved experiment loads back exactly.
				x = Seconds(x).Seconds()
			}
		}
		if err := p.Validate(x); err != nil {
			if !ok {
				err = fmt.Errorf("the default for this network: %w", err)
			}
			return nil, &ParamError{Key: p.Key, Err: err}
		}
		v[p.Key] = x
	}
	if s.Check != nil {
		if err := s.Check(n, v); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// Keys lists the scheme's parameter keys in declaration order.
func (s *Scheme) Keys() []string {
	keys := make([]string, len(s.Params))
	for i, p := range s.Params {
		keys[i] = p.Key
	}
	return keys
}

// MaxCount bounds every parameter of kind Count: a count may size a table
// (DSM's m sizes its history), and a whole count must fit an int.
const MaxCount = 1_000_000_000

// MaxNumber bounds every parameter of kind Number that sets no maximum of
// its own: a gain or weight beyond it can overflow the scheme's products to
// infinity, or its scales to 0 (QCN's Q_EQ*(2W+1) with W = 1e308 is
// infinite, so it never sends feedback), while every product of a few such
// numbers with rates and sizes stays finite.
const MaxNumber = 1e15

// Validate checks one value against the parameter's range and kind.
func (p Param) Validate(x float64) error {
	switch {
	case x != x:
		return fmt.Errorf("not a number")
	case math.IsInf(x, 0):
		return fmt.Errorf("%g is not a finite number", x) // +Inf would switch a scheme's mechanism off
	case x < p.Min:
		return fmt.Errorf("%g is below the minimum %g", x, p.Min)
	case p.Max != 0 && x > p.Max:
		return fmt.Errorf("%g is above the maximum %g", x, p.Max)
	case p.Kind == Number && p.Max == 0 && x > MaxNumber:
		return fmt.Errorf("%g is above %g, the most a number parameter may be (from %g to %g)", x, MaxNumber, p.Min, MaxNumber)
	case p.Kind == Count && x > MaxCount:
		return fmt.Errorf("%g is above %g, the most a count parameter may be", x, float64(MaxCount))
	case p.Kind == Count && x != float64(int64(x)):
		return fmt.Errorf("%g is not a whole number", x)
	case p.Kind == Switch && x != 0 && x != 1:
		return fmt.Errorf("a switch is true or false")
	case p.Kind == Choice && (x != float64(int(x)) || int(x) >= len(p.Choices)):
		return fmt.Errorf("%g is not one of %s", x, p.choiceList())
	}
	return nil
}

var registry = map[string]*Scheme{}

// Register adds a scheme to the registry; each scheme's file calls it from init.
func Register(s *Scheme) {
	if _, dup := registry[s.Name]; dup {
		panic("algos: scheme registered twice: " + s.Name)
	}
	registry[s.Name] = s
}

// Lookup finds a registered scheme by name.
func Lookup(name string) (*Scheme, error) {
	if s, ok := registry[name]; ok {
		return s, nil
	}
	return nil, fmt.Errorf("unknown algorithm %q (known: %s)", name, strings.Join(Names(), ", "))
}

// Names lists the registered schemes in alphabetical order.
func Names() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
