// Package dnstest runs a small DNS server on 127.0.0.1 (UDP) for tests of
// the commands that look names up ("repaudit dns verify"): it answers PTR,
// A and AAAA questions from a table, so that no test needs the network.
// Messages follow RFC 1035 §4.1, built and parsed with
// golang.org/x/net/dns/dnsmessage.
package dnstest

import (
	"net"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"testing"

	"golang.org/x/net/dns/dnsmessage"
)

// Table is what the server knows: PTR names by address, and addresses by
// host name (absolute or not; case is ignored). A name in neither is
// answered NXDOMAIN; Fail names (PTR addresses as reverse names or host
// names) are answered SERVFAIL.
type Table struct {
	PTR  map[netip.Addr][]string
	Addr map[string][]netip.Addr
	Fail map[string]bool
}

// Server is a running test server.
type Server struct {
	Addr string // HOST:PORT

	conn    net.PacketConn
	table   Table
	mu      sync.Mutex
	queries int
}

// Start starts a server answering from table; it stops when the test
// ends.
func Start(t testing.TB, table Table) *Server {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("dnstest: %v", err)
	}
	s := &Server{Addr: pc.LocalAddr().String(), conn: pc, table: table}
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.serve()
	}()
	t.Cleanup(func() {
		pc.Close()
		<-done
	})
	return s
}

// Queries returns how many questions were answered.
func (s *Server) Queries() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.queries
}

func (s *Server) serve() {
	buf := make([]byte, 4096)
	for {
		n, from, err := s.conn.ReadFrom(buf)
		if err != nil {
			return
		}
		if resp, ok := s.answer(buf[:n]); ok {
			s.conn.WriteTo(resp, from)
		}
	}
}

// answer builds the response to one query message.
func (s *Server) answer(msg []byte) ([]byte, bool) {
	var p dnsmessage.Parser
	h, err := p.Start(msg)
	if err != nil {
		return nil, false
	}
	q, err := p.Question()
	if err != nil {
		return nil, false
	}
	s.mu.Lock()
	s.queries++
	s.mu.Unlock()
	rh := dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true, RecursionDesired: h.RecursionDesired, RecursionAvailable: true}
	name := strings.ToLower(q.Name.String())
	ptrs, addrs, known := s.lookup(name)
	switch {
	case s.table.Fail[name] || s.table.Fail[strings.TrimSuffix(name, ".")]:
		rh.RCode = dnsmessage.RCodeServerFailure
	case !known:
		rh.RCode = dnsmessage.RCodeNameError
	}
	b := dnsmessage.NewBuilder(nil, rh)
	b.StartQuestions()
	b.Question(q)
	b.StartAnswers()
	if rh.RCode == dnsmessage.RCodeSuccess {
		res := dnsmessage.ResourceHeader{Name: q.Name, Class: dnsmessage.ClassINET, TTL: 60}
		switch q.Type {
		case dnsmessage.TypePTR:
			for _, n := range ptrs {
				if pn, err := dnsmessage.NewName(absolute(n)); err == nil {
					b.PTRResource(res, dnsmessage.PTRResource{PTR: pn})
				}
			}
		case dnsmessage.TypeA, dnsmessage.TypeAAAA:
			for _, a := range addrs {
				if a.Is4() && q.Type == dnsmessage.TypeA {
					b.AResource(res, dnsmessage.AResource{A: a.As4()})
				} else if a.Is6() && q.Type == dnsmessage.TypeAAAA {
					b.AAAAResource(res, dnsmessage.AAAAResource{AAAA: a.As16()})
				}
			}
		}
	}
	out, err := b.Finish()
	return out, err == nil
}

// lookup finds a name in the table: a reverse name's PTR names, or a host
// name's addresses.
func (s *Server) lookup(name string) (ptrs []string, addrs []netip.Addr, known bool) {
	for a, names := range s.table.PTR {
		if ReverseName(a) == name {
			return names, nil, true
		}
	}
	for n, as := range s.table.Addr {
		if strings.ToLower(absolute(n)) == name {
			return nil, as, true
		}
	}
	return nil, nil, false
}

func absolute(n string) string {
	if strings.HasSuffix(n, ".") {
		return n
	}
	return n + "."
}

// ReverseName is the PTR question name of an address (RFC 1035 §3.5,
// RFC 3596 §2.5), lower case, absolute.
func ReverseName(a netip.Addr) string {
	a = a.Unmap()
	var b strings.Builder
	if a.Is4() {
		v := a.As4()
		for i := 3; i >= 0; i-- {
			b.WriteString(strconv.Itoa(int(v[i])))
			b.WriteByte('.')
		}
		b.WriteString("in-addr.arpa.")
		return b.String()
	}
	const hex = "0123456789abcdef"
	v := a.As16()
	for i := 15; i >= 0; i-- {
		b.WriteByte(hex[v[i]&0xf])
		b.WriteByte('.')
		b.WriteByte(hex[v[i]>>4])
		b.WriteByte('.')
	}
	b.WriteString("ip6.arpa.")
	return b.String()
}
