package pipeline

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/repaudit/repaudit/accesslog"
	"github.com/repaudit/repaudit/audit/input"
	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/ingest"
	"github.com/repaudit/repaudit/output"
	"github.com/repaudit/repaudit/problem"
)

// Splittable reads
//
// A large plain-text access log is read in byte ranges side by side, so
// that one big file does not sit on one worker. Range i of a file covers
// the lines whose first byte lies in [Start, End): a range that starts
// inside a line skips to the byte after the next newline, and a range
// reads on past End to the end of the line it is in (the rule of Hadoop's
// TextInputFormat), so every line is read by exactly one range. Every
// range reads with the format sniffed from the file's head.
//
// What a whole-file read knows and a range does not is settled per file
// after all its ranges are read (fileFn): line numbers (a range counts from
// its own first line; the lines of the ranges before it are added), the
// per-file problem cap (problems are put back in reading order, range by
// range, before the cap), problems said once per file (log-local-time),
// and the file's SHA-256 (range 0 digests the whole file).
//
// Not split: compressed logs (a gzip stream cannot be entered in the
// middle), W3C and CloudFront logs (a #Fields line changes how the lines
// after it are read), WARC and ARC files (a revisit is resolved against
// the records before it in the file), and files on a remote filesystem
// (they are copied to the worker whole).

// DefaultSplitBytes is the size of a range when Config.SplitBytes is 0.
const DefaultSplitBytes = 64 << 20

// splitRefs replaces each local plain-text log larger than the range size
// by its ranges.
func splitRefs(ctx context.Context, refs []fileRef, cfg *Config) []fileRef {
	size := cfg.SplitBytes
	if size == 0 {
		size = DefaultSplitBytes
	}
	if size < 0 {
		return refs
	}
	var out []fileRef
	for _, r := range refs {
		n := 1
		if r.Role == "" && !hasScheme(r.Path) {
			if fi, err := os.Stat(r.Path); err == nil && fi.Mode().IsRegular() && fi.Size() > size {
				if f, err := ingest.SniffContext(ctx, r.Path, cfg.LogFormat); err == nil && splittable(f) {
					n = int((fi.Size() + size - 1) / size)
				}
			}
		}
		if n == 1 {
			out = append(out, r)
			continue
		}
		fi, _ := os.Stat(r.Path)
		for i := range n {
			s := r
			s.Split, s.Splits = i, n
			s.Start = int64(i) * size
			s.End = min(int64(i+1)*size, fi.Size())
			out = append(out, s)
		}
	}
	return out
}

func splittable(f ingest.File) bool {
	if f.Kind != ingest.KindLog || (f.Compression != "" && f.Compression != "none") || f.Format == "" {
		return false
	}
	return accesslog.Format(f.Format).Splittable()
}

// lineStart returns the first line start at or after off: off itself when
// the byte before it is a newline, else the byte after the next newline
// (size when there is none).
func lineStart(f *os.File, off, size int64) (int64, error) {
	if off <= 0 {
		return 0, nil
	}
	if off >= size {
		return size, nil
	}
	br := bufio.NewReaderSize(io.NewSectionReader(f, off-1, size-off+1), 64<<10)
	pos := off - 1
	for {
		b, err := br.ReadSlice('\n')
		pos += int64(len(b))
		if err == nil {
			return pos, nil
		}
		if err == io.EOF {
			return size, nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return 0, err
		}
	}
}

// splitMsg is what a range tells fileFn: one problem (in reading order,
// Seq), or, last, the range's summary.
type splitMsg struct {
	Split   int            `json:"s"`
	Seq     int64          `json:"q,omitempty"`
	Problem *event.Problem `json:"p,omitempty"`
	Info    *splitInfo     `json:"i,omitempty"`
}

type splitInfo struct {
	Split   int    `json:"split"`
	Idx     int    `json:"idx"`
	Path    string `json:"path"`
	Splits  int    `json:"splits"`
	Size    int64  `json:"size"`
	Kind    string `json:"kind"`
	Format  string `json:"format"`
	Lines   int64  `json:"lines"`
	Fetches int64  `json:"fetches"`
	// Explicit is the file's fileRef.Explicit (named on the command
	// line): one none of whose lines is read fails (input.Result.Closing).
	Explicit bool      `json:"explicit,omitempty"`
	Bytes    int64     `json:"bytes"`
	First    time.Time `json:"first"`
	Last     time.Time `json:"last"`
	SHA256   string    `json:"sha256,omitempty"` // range 0: the whole file's
	Err      string    `json:"err,omitempty"`
}

// readSplit reads one range of a plain-text log as ingest.Read reads a
// whole one, giving fetches to onFetch and its problems and summary to
// emit (keyed by the file's index, for fileFn).
func readSplit(ctx context.Context, ref fileRef, local string, cfg *Config, onFetch func(*event.Fetch) error, emit func(string, []byte),
	noteTimes func(first, last time.Time)) error {
	key := strconv.Itoa(ref.Idx)
	var seq int64
	problem := func(p event.Problem) {
		if p.Source.File == local {
			p.Source.File = ref.Path
		}
		seq++
		emit(key, encode(&splitMsg{Split: ref.Split, Seq: seq, Problem: &p}))
	}
	info := &splitInfo{Split: ref.Split, Idx: ref.Idx, Path: ref.Path, Splits: ref.Splits, Explicit: ref.Explicit}
	err := func() error {
		f, err := ingest.SniffContext(ctx, local, cfg.LogFormat)
		if err != nil {
			return err
		}
		info.Size, info.Kind, info.Format = f.Size, string(f.Kind), f.Format
		fh, err := os.Open(local)
		if err != nil {
			return err
		}
		defer fh.Close()
		fi, err := fh.Stat()
		if err != nil {
			return err
		}
		start, err := lineStart(fh, ref.Start, fi.Size())
		if err != nil {
			return err
		}
		end, err := lineStart(fh, ref.End, fi.Size())
		if err != nil {
			return err
		}
		if ref.Split == 0 {
			if info.SHA256, err = ingest.FileSHA256(local); err != nil {
				return err
			}
		}
		if end <= start {
			return nil // a range inside one long line: read by the range it starts in
		}
		r, err := accesslog.NewReader(io.NewSectionReader(fh, start, end-start), ref.Path,
			accesslog.Options{Format: accesslog.Format(f.Format), ExtraHeaders: cfg.LogExtraHeaders})
		if err != nil {
			return err
		}
		defer func() {
			for _, p := range r.Problems() {
				problem(p)
			}
			info.Lines, info.Bytes = r.Lines(), r.BytesRead()
		}()
		for n := 0; ; n++ {
			if n%1024 == 1023 {
				if err := ctx.Err(); err != nil {
					return err
				}
				for _, p := range r.Problems() {
					problem(p)
				}
			}
			ft, err := r.Next()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return fmt.Errorf("ingest: %s: %w", ref.Path, err)
			}
			info.Fetches++
			if t := ft.Time; !t.IsZero() {
				if info.First.IsZero() || t.Before(info.First) {
					info.First = t
				}
				if t.After(info.Last) {
					info.Last = t
				}
			}
			if err := onFetch(ft); err != nil {
				return err
			}
		}
	}()
	if err != nil {
		info.Err = err.Error()
	}
	noteTimes(info.First, info.Last)
	emit(key, encode(&splitMsg{Split: ref.Split, Info: info}))
	return nil
}

// fileFn puts the ranges of one split file back together (an element is
// the file's index and every range's messages): the problems in reading
// order with file line numbers and audit's per-file cap, the file's
// manifest entry, and the line offset of each range for the judging stage.
type fileFn struct {
	MaxProblemsPerFile int `json:"max"`
}

// lineOffsets is the number of lines before each range of a split file.
type lineOffsets struct {
	Idx     int     `json:"idx"`
	Offsets []int64 `json:"offsets"`
}

// decodeSplitMsgs reads the messages of one file's ranges: the ranges'
// summaries and their problems.
func decodeSplitMsgs(key string, values func(*[]byte) bool) (infos []*splitInfo, probs []splitMsg, err error) {
	var b []byte
	for values(&b) {
		var m splitMsg
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, nil, fmt.Errorf("file %s: decode range message: %w", key, err)
		}
		if m.Info != nil {
			infos = append(infos, m.Info)
		} else if m.Problem != nil {
			probs = append(probs, m)
		}
	}
	return infos, probs, nil
}

func (fn *fileFn) ProcessElement(ctx context.Context, key string, values func(*[]byte) bool,
	emitProblem func([]byte), emitFile func([]byte), emitOffsets func([]byte)) error {
	stageHook("files")
	infos, probs, err := decodeSplitMsgs(key, values)
	if err != nil {
		return err
	}
	if len(infos) == 0 || len(infos) != infos[0].Splits {
		return fmt.Errorf("file %s: %d of its ranges reported", key, len(infos))
	}
	slices.SortFunc(infos, func(x, y *splitInfo) int { return cmp.Compare(x.Split, y.Split) })
	first := infos[0]
	offsets := make([]int64, len(infos))
	in := fileInfo{Idx: first.Idx, Listed: true}
	var lines, fetches, bytes int64
	var failure string
	for i, si := range infos {
		offsets[i] = lines
		lines += si.Lines
		fetches += si.Fetches
		bytes += si.Bytes
		if !si.First.IsZero() && (in.First.IsZero() || si.First.Before(in.First)) {
			in.First = si.First
		}
		if si.Last.After(in.Last) {
			in.Last = si.Last
		}
		if si.Err != "" && failure == "" {
			failure = si.Err
		}
	}
	emitOffsets(encode(&lineOffsets{Idx: first.Idx, Offsets: offsets}))

	// Problems in reading order, with the lines of the file.
	slices.SortFunc(probs, func(x, y splitMsg) int {
		if c := cmp.Compare(x.Split, y.Split); c != 0 {
			return c
		}
		return cmp.Compare(x.Seq, y.Seq)
	})
	kept := input.Problems{Max: fn.MaxProblemsPerFile}
	once := map[problem.Code]bool{}
	var nReader int64
	write := func(p event.Problem) { emitProblem(encode(input.ProblemRow(p))) }
	for _, m := range probs {
		p := *m.Problem
		switch p.Code {
		case accesslog.CodeLocalTime:
			// Said once per file, by the first range that met it.
			if once[p.Code] {
				continue
			}
			once[p.Code] = true
		case accesslog.CodeNothingRead:
			// Each range without a readable line says so; the file
			// says so once, and only when no range read a line.
			if fetches > 0 || once[p.Code] {
				continue
			}
			once[p.Code] = true
		}
		if p.Source.Line > 0 && p.Source.File == first.Path {
			p.Source.Line += offsets[m.Split]
		}
		nReader++
		kept.Keep(p)
	}
	// The closing problems of the file, as for a file read whole.
	res := input.Result{File: ingest.File{Path: first.Path, Kind: ingest.Kind(first.Kind)}, Problems: kept, Explicit: first.Explicit,
		Stats: ingest.Stats{Fetches: fetches, Bytes: bytes}}
	sha := first.SHA256
	if failure != "" {
		in.Failed = true
		sha = ""
		res.Err = errors.New(failure)
	}
	for _, p := range slices.Concat(kept.List, res.Closing()) {
		write(p)
	}
	in.Input = output.Input{Path: first.Path, Size: first.Size, SHA256: sha, Kind: first.Kind, Format: first.Format, Records: lines, Problems: nReader}
	emitFile(encode(&in))
	return nil
}
