package model

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"qcnlab/algos"
)

// PFC decided per ingress link, as the switches of both public ns-3 RDMA
// simulators decide it (bobzhuyb/ns3-rdma's BroadcomNode::GetPauseClasses
// on m_usedIngressPGBytes; alibaba-edu/High-Precision-Congestion-Control's
// SwitchMmu::CheckShouldPause on ingress_bytes): a switch counts, for each
// link into it, the bytes that arrived through that link and still sit in
// the switch, in whichever egress queue; when that count rises above the
// link's XOFF, the switch sends PAUSE up that link only, to the port or NIC
// at its far end, and XON when the count falls to XON. A link whose frames
// do not sit in the switch is never paused, wherever routing could send
// them. (One traffic class: a link is paused for all of its frames.)
//
// The thresholds are static and derived so that no egress buffer can
// overflow: each of the n links that routing may feed an egress port
// through may hold its share B/n of that port's buffer, its XOFF that share
// less its headroom (the in-flight bytes of pfcThresholds' formula); a link
// takes the least over the ports it may feed. network.pfc_xoff and
// network.pfc_xon, when set, are every link's.
//
// Dynamic thresholds (PFC.Dynamic) make the switch's ports share one
// buffer, the sum of theirs, B, as HPCC's SwitchMmu does: a link's XOFF is
// Alpha (B - H - U), H the headroom of every link into the switch, U the
// bytes it holds, so that the more the switch holds, the sooner each link
// pauses; with n links at their threshold U + H stays below B, so nothing
// is dropped. XON is XOFF - 2 frames at the moment it is checked; the check
// is planned at the departure that would take the link there counting its
// own departures' effect on U, and runs again if arrivals moved it.

// ingressLink is one link into a switch, as PFC sees it. Links are indexed
// by their sender: a simulated port's index, or ports + a host's.
type ingressLink struct {
	node      int32 // the switch it enters
	bytes     int   // that arrived through it and are still in the switch
	xoff, xon int
	pausing   bool       // XOFF sent, XON not yet
	blame     int32      // the egress port whose arrival crossed XOFF
	gen       uint32     // generation of the live XON check
	room      int        // headroom, for the thresholds
	feeds     bool       // it enters a switch (a port's link to a host does not)
	since     algos.Time // when pausing began
}

// ingressThresholds derives every ingress link's XOFF, XON and headroom;
// links that enter no switch have feeds false. An error names the port
// whose buffer cannot hold its feeders' headroom and a frame each.
func (c *Config) ingressThresholds(n *network) ([]ingressLink, error) {
	t := n.topo
	frame := c.FrameBytes
	P := len(n.ports)
	links := make([]ingressLink, P+len(t.Hosts))
	for i := range links {
		links[i].xoff = math.MaxInt
	}
	room := func(f feeder) (int, int) { // the link's index and headroom
		if f.port >= 0 {
			up := t.Ports[n.ports[f.port]]
			return int(f.port), int(math.Ceil(float64(frame) + (2*up.Delay+c.SwitchJitter).Seconds()*up.Capacity/8 + 2*float64(frame)))
		}
		nic := t.Ports[t.NIC(int(f.host))]
		return P + int(f.host), int(math.Ceil(float64(frame) + (nic.Delay+nic.Back+c.SwitchJitter).Seconds()*nic.Capacity/8 + 2*float64(frame)))
	}
	for j, tp := range n.ports {
		buffer := t.Ports[tp].Buffer
		name := t.Ports[tp].Name
		if n.chain {
			name = fmt.Sprint(j)
		}
		feeders := n.feeders[j]
		for _, f := range feeders {
			i, r := room(f)
			l := &links[i]
			l.feeds, l.room = true, r
			l.node = int32(t.Ports[tp].From)
			share := buffer/len(feeders) - r
			if share < frame && !c.PFC.Dynamic {
				return nil, fmt.Errorf("port %s's buffer (%d B) cannot hold a frame below XOFF and the PFC headroom (%d B) for each of its %d feeders: give it a buffer of at least %d B",
					name, buffer, r, len(feeders), len(feeders)*(r+2*frame))
			}
			l.xoff = min(l.xoff, share)
		}
	}
	if c.PFC.Dynamic {
		return links, c.checkSharedBuffers(n, links)
	}
	for i := range links {
		l := &links[i]
		if !l.feeds {
			continue
		}
		if c.PFC.Xoff >= 0 {
			if c.PFC.Xoff > l.xoff {
				return nil, fmt.Errorf("XOFF %d B is above an ingress link's share of a buffer it feeds less its headroom (%d B)", c.PFC.Xoff, l.xoff)
			}
			l.xoff = c.PFC.Xoff
		}
		l.xon = max(0, l.xoff-2*frame)
		if c.PFC.Xon >= 0 {
			l.xon = c.PFC.Xon
		}
		if l.xon >= l.xoff {
			return nil, fmt.Errorf("XON %d B must be below XOFF %d B", l.xon, l.xoff)
		}
	}
	return links, nil
}

// checkSharedBuffers checks that every switch's shared buffer (its ports')
// holds the headroom of the links into it and a few frames.
func (c *Config) checkSharedBuffers(n *network, links []ingressLink) error {
	t := n.topo
	free := make([]int, len(t.Nodes))
	for _, tp := range n.ports {
		free[t.Ports[tp].From] += t.Ports[tp].Buffer
	}
	if sh := c.Shared; sh != nil { // the switch's buffer, less its queues' reserves
		free = c.switchBuffers(n)
		for _, tp := range n.ports {
			free[t.Ports[tp].From] -= sh.Reserve * c.classCount()
		}
	}
	room := make([]int, len(t.Nodes))
	for _, l := range links {
		if l.feeds {
			room[l.node] += l.room
		}
	}
	for node := range free {
		if room[node] > 0 && free[node]-room[node] < 4*c.FrameBytes {
			return fmt.Errorf("switch %s's shared buffer (%d B, its ports') cannot hold the PFC headroom of the links into it (%d B) and a few frames",
				t.Nodes[node].Name, free[node], room[node])
		}
	}
	return nil
}

// startIngressPFC sets up the ingress links and each switch's ports.
func (s *Packet) startIngressPFC() error {
	links, err := s.cfg.ingressThresholds(s.net)
	if err != nil {
		return err
	}
	if s.classes > 1 {
		links = s.classLinks(links)
		for i := range s.hosts {
			s.hosts[i].classPaused = new([MaxClasses]int32)
		}
	}
	s.ingress = links
	s.switchPorts = make([][]int32, len(s.net.topo.Nodes))
	for j, tp := range s.net.ports {
		from := s.net.topo.Ports[tp].From
		s.switchPorts[from] = append(s.switchPorts[from], int32(j))
	}
	nodes := len(s.net.topo.Nodes)
	s.nodeIngress = make([][]int32, nodes)
	s.nodeBytes, s.nodeFree = make([]int, nodes), make([]int, nodes)
	for i, l := range links {
		if l.feeds {
			s.nodeIngress[l.node] = append(s.nodeIngress[l.node], int32(i))
			s.nodeFree[l.node] -= l.room
		}
	}
	if s.cfg.PFC.Dynamic {
		// The ports of a switch share its buffer: each may hold all of it.
		shared := make([]int, nodes)
		var switchBuffer []int
		if s.cfg.Shared != nil {
			switchBuffer = s.cfg.switchBuffers(s.net)
		}
		for node, ports := range s.switchPorts {
			for _, j := range ports {
				shared[node] += s.ports[j].buffer
			}
			if sh := s.cfg.Shared; sh != nil { // the switch's buffer, less its queues' reserves
				shared[node] = switchBuffer[node] - sh.Reserve*len(ports)*int(s.classes)
			}
			s.nodeFree[node] += shared[node]
			for _, j := range ports {
				p := s.ports[j]
				p.buffer = shared[node]
				if p.cls != nil {
					p.cls.share(max(p.buffer, p.cls.q[0].buffer), s.cfg.FrameBytes)
					p.level, p.bins = newLevelStats(float64(s.cfg.FrameBytes), float64(p.cls.q[0].buffer*len(p.cls.q)))
					continue
				}
				p.level, p.bins = newLevelStats(float64(s.cfg.FrameBytes), float64(p.buffer))
			}
		}
	}
	for _, p := range s.ports {
		p.pfc = &portPFC{marks: []pfcMark{{}}}
	}
	s.pausedMarks = [][]algos.Time{make([]algos.Time, len(s.hosts))}
	return nil
}

// ingressArrive counts frame bytes that arrived through link in and were
// queued at port pi (its link noted in inq, the port's or, waiting, its
// class's), and pauses the link above its XOFF.
func (s *Packet) ingressArrive(pi, in int32, bytes int, inq *ring[int32]) {
	inq.push(in)
	l := &s.ingress[in]
	l.bytes += bytes
	s.nodeBytes[l.node] += bytes
	if l.bytes > s.xoff(l) && !l.pausing {
		s.departSwitch(l.node) // the count is exact only once every port's departures are in
		if l.bytes > s.xoff(l) {
			s.pauseIngress(in, pi)
		}
	}
}

// xoff is link l's XOFF now.
func (s *Packet) xoff(l *ingressLink) int {
	if !s.cfg.PFC.Dynamic {
		return l.xoff
	}
	if !l.feeds { // a lossy class's
		return math.MaxInt
	}
	return int(s.cfg.PFC.Alpha * float64(s.nodeFree[l.node]-s.nodeBytes[l.node]))
}

// xon is link l's XON now.
func (s *Packet) xon(l *ingressLink) int {
	if !s.cfg.PFC.Dynamic {
		return l.xon
	}
	return s.xoff(l) - 2*s.cfg.FrameBytes
}

// departSwitch applies the departures of every port of switch node up to now.
func (s *Packet) departSwitch(node int32) {
	for _, j := range s.switchPorts[node] {
		s.events += uint64(s.serve(s.ports[j], j, s.now))
	}
}

// pauseIngress sends XOFF up link in, blaming egress port pi.
func (s *Packet) pauseIngress(in, pi int32) {
	l := &s.ingress[in]
	l.pausing, l.since, l.blame = true, s.now, pi
	st := s.ports[pi].pfc
	st.pauseFrames++
	if st.pausingLinks == 0 {
		st.pausing, st.since = true, s.now
	}
	st.pausingLinks++
	s.signalIngress(in, true)
	s.checkIngressXon(in)
}

// signalIngress sends XOFF (on) or XON up link in, to the port or NIC at
// its far end, which it reaches after the link's propagation back.
func (s *Packet) signalIngress(in int32, on bool) {
	var class uint8
	if C := s.classes; C > 1 { // the link and class of a (link, class)
		in, class = in/C, uint8(in%C)
	}
	if P := int32(len(s.ports)); in >= P {
		h := in - P
		s.agenda.schedule(event{kind: evPauseHost, at: s.now + s.hosts[h].bwd, host: h, on: on, class: class})
		return
	}
	s.agenda.schedule(event{kind: evPausePort, at: s.now + s.ports[in].delay, port: in, on: on, class: class})
}

// checkIngressXon schedules the check of link in at the departure that
// will take its count to XON if nothing more arrives through it; none
// while frames it needs are held behind a paused port (its release checks
// again).
func (s *Packet) checkIngressXon(in int32) {
	l := &s.ingress[in]
	l.gen++
	need := l.bytes - s.xon(l)
	if s.cfg.PFC.Dynamic { // each byte that leaves raises XON by Alpha
		need = int(math.Ceil(float64(need) / (1 + s.cfg.PFC.Alpha)))
	}
	if need <= 0 {
		s.agenda.schedule(event{kind: evIngressXonCheck, at: s.now, port: in, gen: l.gen})
		return
	}
	d := s.xonScratch[:0]
	for _, j := range s.switchPorts[l.node] {
		p := s.ports[j]
		p.eachDeparture(s.now, func(k int, at algos.Time, bytes int) bool {
			if *p.inq.at(k) == in {
				d = append(d, departure{at, bytes})
			}
			return true
		})
	}
	s.xonScratch = d
	slices.SortFunc(d, func(a, b departure) int { return cmp.Compare(a.at, b.at) })
	for _, x := range d {
		if need -= x.bytes; need <= 0 {
			s.agenda.schedule(event{kind: evIngressXonCheck, at: max(x.at, s.now), port: in, gen: l.gen})
			return
		}
	}
	if s.classPorts { // the schedulers' order is known one frame ahead: check at the next departure
		if at := s.nextDeparture(l.node); at != algos.Never {
			s.agenda.schedule(event{kind: evIngressXonCheck, at: max(at, s.now), port: in, gen: l.gen})
		}
	}
}

// departure is a queued frame's departure, for checkIngressXon.
type departure struct {
	at    algos.Time
	bytes int
}

// ingressXonCheck runs link in's scheduled check: at or below XON the link
// is released; otherwise frames arrived meanwhile and the check moves on.
func (s *Packet) ingressXonCheck(in int32, gen uint32) {
	l := &s.ingress[in]
	if gen != l.gen || !l.pausing {
		return
	}
	s.departSwitch(l.node)
	if l.bytes > s.xon(l) {
		s.checkIngressXon(in)
		return
	}
	l.pausing = false
	st := s.ports[l.blame].pfc
	if st.pausingLinks--; st.pausingLinks == 0 {
		st.pausing = false
		st.pausingTime += s.now - st.since
	}
	s.signalIngress(in, false)
}

// recheckIngress checks again the paused links into switch node, whose
// port has resumed service: their frames behind it now have departures.
func (s *Packet) recheckIngress(node int32) {
	for _, i := range s.nodeIngress[node] {
		if s.ingress[i].pausing {
			s.checkIngressXon(i)
		}
	}
}
