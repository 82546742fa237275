package history

import (
	"errors"
	"fmt"
	"github.com/repaudit/repaudit/event"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/repaudit/repaudit/internal/decompress"
	"github.com/repaudit/repaudit/problem"
	"github.com/repaudit/repaudit/robots"
)

// Origins of a Version.
const (
	OriginFile = "file" // a plain file, --robots FILE[@TIME]
	OriginGit  = "git"  // a commit, --robots-git DIR[:PATH]
	OriginDir  = "dir"  // a dated snapshot, --robots-dir DIR
)

// MaxFile caps the bytes read of one robots.txt version: ten times the
// RFC 9309 §2.5 minimum parsing limit of 500 KiB, so the parser's own
// limit (and its truncated flag) decides, not this one.
const MaxFile = 5 << 20

// Version is one version of a site's robots.txt as the site keeps it.
type Version struct {
	Body []byte
	// From is when the site started serving it; zero when the source
	// gives no time (a plain file without @TIME).
	From time.Time
	// Absent is true when the file did not exist from From on (removed
	// in a commit).
	Absent bool
	Origin string // OriginFile, OriginGit, OriginDir
	// Ref is what a person opens to check it: the file path,
	// "REPO@COMMIT:PATH" (the commit hash abbreviated to 12 digits), the
	// snapshot's path.
	Ref string
	// Detail is extra evidence: a commit's subject line and author.
	Detail string
	// File is the file to name in problems and source columns: the
	// robots.txt file, the repository directory, the snapshot.
	File string
}

// warn returns the problem of a source located at file: history's
// problems are all warnings (a version is not used; the run goes on).
func warn(file string, code problem.Code, msg string) event.Problem {
	return event.Problem{Source: event.Source{File: file, Offset: -1}, Code: code, Severity: event.SevWarning, Message: msg}
}

// ErrNotRobots says a file given as robots.txt does not look like one.
var ErrNotRobots = errors.New("history: not a robots.txt file")

// ParseTime reads a time as given after FILE@ or in a snapshot's name:
// RFC 3339 (2025-03-01T12:00:00Z, with an offset, or without seconds), a
// date (2025-03-01, midnight UTC), or the compact forms 20250301,
// 20250301T120000Z and the Wayback Machine's 14 digits 20250301120000. A
// time without a zone is UTC.
func ParseTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	layouts := []string{
		time.RFC3339Nano,
		"2006-01-02T15:04:05",
		"2006-01-02T15:04Z07:00",
		"2006-01-02T15:04",
		"2006-01-02",
		"20060102T150405Z07:00",
		"20060102T150405",
		"20060102150405",
		"20060102",
	}
	for _, l := range layouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC(), nil
		}
	}
	// Zones written as Z in compact forms.
	if strings.HasSuffix(s, "Z") {
		if t, err := time.Parse("20060102T150405", strings.TrimSuffix(s, "Z")); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("history: %q is not a time (use RFC 3339, YYYY-MM-DD or YYYYMMDDhhmmss)", s)
}

// SplitFileTime splits "FILE@TIME" as given to --robots. The time is what
// follows the last '@' when it reads as a time; otherwise the whole
// argument is the file (file names may contain '@').
func SplitFileTime(arg string) (file string, t time.Time, hasTime bool, err error) {
	i := strings.LastIndexByte(arg, '@')
	if i <= 0 {
		return arg, time.Time{}, false, nil
	}
	if _, statErr := os.Stat(arg); statErr == nil {
		return arg, time.Time{}, false, nil // the whole argument is a file
	}
	t, err = ParseTime(arg[i+1:])
	if err != nil {
		return "", time.Time{}, false, fmt.Errorf("--robots %s: %w", arg, err)
	}
	return arg[:i], t, true, nil
}

// ReadFile reads one robots.txt file given as --robots FILE[@TIME]; t is
// zero when no time was given. A file that does not look like robots.txt
// (an HTML page, a log) is refused with ErrNotRobots.
func ReadFile(path string, t time.Time) (Version, error) {
	body, err := readCapped(path)
	if err != nil {
		return Version{}, err
	}
	if !robots.Sniff(body) {
		return Version{}, fmt.Errorf("%s: %w (no User-agent, Allow, Disallow, Sitemap or ACAP line)", path, ErrNotRobots)
	}
	return Version{Body: body, From: t, Origin: OriginFile, Ref: path, File: path}, nil
}

func readCapped(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Through the one opener of every input: a robots.txt.gz is read
	// decompressed, as sniffing saw it.
	dr, err := decompress.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer dr.Close()
	body, err := io.ReadAll(io.LimitReader(dr, MaxFile))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return body, nil
}

// snapshotTime finds the date or time in a snapshot's file name:
// 2025-03-01.txt, robots-2025-03-01T12:00:00Z.txt, robots_20250301.txt,
// 20250301120000.txt (a Wayback timestamp). Colons may be written as '-'
// or left out, as file systems require.
var snapshotTime = regexp.MustCompile(`(\d{4})-?(\d{2})-?(\d{2})(?:[T_ ]?(\d{2})[:\-]?(\d{2})(?:[:\-]?(\d{2}))?(Z|[+\-]\d{2}[:\-]?\d{2})?)?`)

// SnapshotTime returns the time a snapshot's name gives, and false when
// the name has none.
func SnapshotTime(name string) (time.Time, bool) {
	m := snapshotTime.FindStringSubmatch(filepath.Base(name))
	if m == nil {
		return time.Time{}, false
	}
	s := m[1] + "-" + m[2] + "-" + m[3]
	if m[4] != "" {
		sec := m[6]
		if sec == "" {
			sec = "00"
		}
		s += "T" + m[4] + ":" + m[5] + ":" + sec
		switch z := m[7]; {
		case z == "" || z == "Z":
			s += "Z"
		default:
			z = strings.ReplaceAll(z, "-", ":")
			if z[0] == ':' { // "-05-00" became ":05:00"
				z = "-" + z[1:]
			}
			if len(z) == 5 {
				z = z[:3] + ":" + z[3:]
			}
			s += z
		}
		t, err := time.Parse(time.RFC3339, s)
		return t.UTC(), err == nil
	}
	t, err := time.Parse("2006-01-02", s)
	return t.UTC(), err == nil
}

// ReadDir reads a directory of dated snapshots (--robots-dir): every
// regular file whose name carries a date or time (SnapshotTime), in force
// from that time until the next one. Files without a time in their name,
// and files that are not robots.txt, are problems; the rest is read.
func ReadDir(dir string) ([]Version, []event.Problem, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("--robots-dir: %w", err)
	}
	var out []Version
	var probs []event.Problem
	for _, e := range entries {
		if e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		t, ok := SnapshotTime(e.Name())
		if !ok {
			probs = append(probs, warn(p, problem.RobotsSnapshotUndated,
				"no date or time in the file name (e.g. 2025-03-01.txt, robots-2025-03-01T12:00:00Z.txt): not used"))
			continue
		}
		v, err := ReadFile(p, t)
		if err != nil {
			probs = append(probs, warn(p, problem.RobotsSnapshotUnreadable, err.Error()+": not used"))
			continue
		}
		v.Origin = OriginDir
		out = append(out, v)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].From.Before(out[j].From) })
	for i := 1; i < len(out); i++ {
		if out[i].From.Equal(out[i-1].From) {
			probs = append(probs, warn(out[i].File, problem.RobotsSnapshotSameTime,
				"dated "+out[i].From.Format(time.RFC3339)+" like "+out[i-1].File+": both kept, ordered by name"))
		}
	}
	if len(out) == 0 {
		return nil, probs, fmt.Errorf("--robots-dir %s: no dated robots.txt snapshot in it", dir)
	}
	return out, probs, nil
}
