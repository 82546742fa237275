package identity

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/repaudit/repaudit/problem"
)

// FileNote is what AddFiles found in a file: a problem, or (Invalid not
// "") a card found invalid, whose keys are not trusted.
type FileNote struct {
	Problem Problem
	File    string
	Invalid string
}

func (n FileNote) String() string {
	if n.Invalid != "" {
		return fmt.Sprintf("%s: card invalid (%s): its keys are not trusted", n.File, n.Invalid)
	}
	return fmt.Sprintf("%s: %s: %s", n.Problem.Source, n.Problem.Code, n.Problem.Message)
}

// AddFiles reads local JWK Set files, whose keys are trusted for any
// agent, and Signature Agent Card files into s, valid for all time. It
// returns what it found in them, file by file; the error is for a file
// that cannot be read, is larger than MaxDocumentBytes, or is not a JWK
// Set or card at all.
func (s *Store) AddFiles(jwks, cards []string) ([]FileNote, error) {
	var notes []FileNote
	add := func(ps []Problem) {
		for _, p := range ps {
			notes = append(notes, FileNote{Problem: p})
		}
	}
	for _, f := range jwks {
		data, err := readCapped(f)
		if err != nil {
			return notes, err
		}
		keys, ps, err := ParseJWKS(data, f)
		add(ps)
		if err != nil {
			return notes, fmt.Errorf("%s: %w", f, err)
		}
		s.AddTrustedKeys(keys)
	}
	for _, f := range cards {
		data, err := readCapped(f)
		if err != nil {
			return notes, err
		}
		c, ps, err := ParseCard(data, f)
		add(ps)
		if err != nil {
			return notes, fmt.Errorf("%s: %w", f, err)
		}
		if c.Invalid != "" {
			notes = append(notes, FileNote{File: f, Invalid: c.Invalid})
		}
		s.AddCard(c, time.Time{})
	}
	return notes, nil
}

// readCapped reads a local key or card file, refusing one larger than
// MaxDocumentBytes.
func readCapped(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxDocumentBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if len(data) > MaxDocumentBytes {
		return nil, fmt.Errorf("%s: %w", name, ErrTooLarge)
	}
	return data, nil
}

// ReadRegistryFile reads the registry file name (ParseRegistry), or stdin
// for "-", and returns the name its problems use ("stdin" for stdin). The
// error is for a file that cannot be opened, or a read that failed part
// way (the problem.RegistryReadError problem, which a caller should not
// take as a list cut short).
func ReadRegistryFile(name string, stdin io.Reader) (entries []RegistryEntry, probs []Problem, source string, err error) {
	r, source := stdin, "stdin"
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, nil, name, err
		}
		defer f.Close()
		r, source = f, name
	}
	entries, probs = ParseRegistry(r, source)
	for _, p := range probs {
		if p.Code == problem.RegistryReadError {
			return entries, probs, source, fmt.Errorf("%s: %s", p.Source, p.Message)
		}
	}
	return entries, probs, source, nil
}
