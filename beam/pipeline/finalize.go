package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/repaudit/repaudit/audit"
	"github.com/repaudit/repaudit/audit/input"
	"github.com/repaudit/repaudit/evaluate"
	"github.com/repaudit/repaudit/ingest"
	"github.com/repaudit/repaudit/output"
	"github.com/repaudit/repaudit/table"
)

type tableProblem = table.Problem

// finalizeFn runs once (its main input is the parts, files and shared
// facts grouped under one key, so after every part file exists; not side
// inputs, which keep Prism's watermark loop busy while it runs, world.go).
// It moves the parts
// into DIR/<table>/part-NNNNN.parquet, writes an empty part for a table
// no bundle wrote, and writes manifest.json last. A local output appears
// whole by one rename; on a remote filesystem manifest.json, written last,
// marks a finished run.
type finalizeFn struct {
	Cfg   Config `json:"cfg"`
	Start int64  `json:"start"` // launch time, Unix nanoseconds, for the timings
	// SiteInputs are the manifest entries of the --robots, --robots-git
	// and --robots-dir sources, read by the launcher.
	SiteInputs []output.Input `json:"site_inputs"`
	// World is the judging stage's world file (world.go), removed here.
	World string `json:"world"`
}

func (fn *finalizeFn) ProcessElement(ctx context.Context, _ string, partsSI, filesSI, sharedSI func(*[]byte) bool) error {
	cfg := &fn.Cfg
	in, err := gather(partsSI, filesSI, sharedSI)
	if err != nil {
		return fmt.Errorf("finalize: %w", err)
	}
	dest := cfg.Out
	local := !hasScheme(cfg.Out)
	if local {
		parent := filepath.Dir(filepath.Clean(cfg.Out))
		if err := os.MkdirAll(parent, 0o755); err != nil {
			return err
		}
		d, err := os.MkdirTemp(parent, filepath.Base(cfg.Out)+".partial-")
		if err != nil {
			return err
		}
		dest = d
		defer os.RemoveAll(d) // gone after the rename; cleans up after a failure
	}
	counts, err := placeParts(ctx, dest, in.parts)
	if err != nil {
		return fmt.Errorf("finalize: %w", err)
	}
	m, err := fn.manifest(in, counts)
	if err != nil {
		return fmt.Errorf("finalize: %w", err)
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	if err := writeFile(ctx, joinPath(dest, output.ManifestName), data); err != nil {
		return fmt.Errorf("finalize: %w", err)
	}
	if local {
		if err := swapInto(dest, cfg.Out, cfg.Force); err != nil {
			return fmt.Errorf("finalize: %w", err)
		}
	}
	removePath(ctx, fn.World)
	removePath(ctx, tmpDir(cfg.Out))
	return nil
}

// gathered is what the finalize stage reads from its side inputs.
type gathered struct {
	parts  []partInfo // in a fixed order
	files  []fileInfo // in input order
	shared evaluate.Shared
	facts  audit.NoticeFacts
}

// gather reads the side inputs: the table parts (and the partitions'
// notice facts), the files, the shared facts.
func gather(partsSI, filesSI, sharedSI func(*[]byte) bool) (*gathered, error) {
	var g gathered
	var b []byte
	for partsSI(&b) {
		var p partInfo
		if err := json.Unmarshal(b, &p); err != nil {
			return nil, err
		}
		if p.Notices != nil {
			g.facts.Merge(*p.Notices)
			continue
		}
		g.parts = append(g.parts, p)
	}
	for filesSI(&b) {
		var f fileInfo
		if err := json.Unmarshal(b, &f); err != nil {
			return nil, err
		}
		g.files = append(g.files, f)
	}
	for sharedSI(&b) {
		var s evaluate.Shared
		if err := json.Unmarshal(b, &s); err != nil {
			return nil, err
		}
		g.shared.Merge(s)
	}
	// A fixed order: the part names do not depend on bundle timing.
	sort.Slice(g.parts, func(i, j int) bool {
		if g.parts[i].Table != g.parts[j].Table {
			return g.parts[i].Table < g.parts[j].Table
		}
		return g.parts[i].Path < g.parts[j].Path
	})
	sort.SliceStable(g.files, func(i, j int) bool { return g.files[i].Idx < g.files[j].Idx })
	return &g, nil
}

// placeParts moves the parts into dest, numbered per table, writes an
// empty part for every table that has none (so that readers find its
// schema), and returns the rows of each table.
func placeParts(ctx context.Context, dest string, parts []partInfo) (map[string]int64, error) {
	counts := map[string]int64{}
	n := map[string]int{}
	for _, p := range parts {
		dst := joinPath(dest, p.Table, fmt.Sprintf("part-%05d.parquet", n[p.Table]))
		n[p.Table]++
		if err := move(ctx, p.Path, dst); err != nil {
			return nil, err
		}
		counts[p.Table] += p.Rows
	}
	var missing []string
	for _, t := range table.Tables {
		if n[t.Name] == 0 {
			missing = append(missing, t.Name)
		}
		if _, ok := counts[t.Name]; !ok {
			counts[t.Name] = 0
		}
	}
	if len(missing) > 0 {
		if err := writeEmptyParts(ctx, dest, missing); err != nil {
			return nil, err
		}
	}
	return counts, nil
}

// manifest is the run's manifest: as the local audit writes it, from the
// files, the shared facts and the partitions' counts.
func (fn *finalizeFn) manifest(g *gathered, counts map[string]int64) (*output.Manifest, error) {
	cfg := &fn.Cfg
	catalog, err := input.LoadCatalog(cfg.Bots)
	if err != nil {
		return nil, err
	}
	asOf := cfg.Eval.AsOf
	if asOf.IsZero() {
		asOf = g.shared.Latest // what Build takes for a zero Options.AsOf
	}
	m := &output.Manifest{
		Tool: "repaudit", Version: cfg.Version, SchemaVersion: table.SchemaVersion, Command: cfg.Command,
		Options: map[string]any{}, Counts: counts, AsOf: formatTime(asOf),
		Timings: map[string]float64{"pipeline": time.Since(time.Unix(0, fn.Start)).Seconds()},
	}
	ci := input.CatalogInfo(catalog, cfg.Bots)
	m.Catalog = &ci
	for _, c := range g.shared.Crawlers {
		m.ArchiveCrawlers = append(m.ArchiveCrawlers, output.ArchiveCrawler{File: c.File, Agent: c.Agent, DerivedFrom: c.From, Crawl: c.Crawl})
	}
	for k, v := range cfg.ManifestOptions {
		m.Options[k] = v
	}
	var first, last time.Time
	for _, f := range g.files {
		if f.Listed {
			m.Inputs = append(m.Inputs, f.Input)
		}
		if !f.First.IsZero() && (first.IsZero() || f.First.Before(first)) {
			first = f.First
		}
		if f.Last.After(last) {
			last = f.Last
		}
	}
	m.Inputs = append(m.Inputs, fn.SiteInputs...)
	var side input.State
	input.SideInputs(cfg.Options, &side)
	m.Inputs = append(m.Inputs, side.Inputs...)
	m.Started, m.Finished = formatTime(first), formatTime(last)
	// The notices, from the same facts the local audit writes them from:
	// the site settled over all inputs, and what every partition's rows
	// and model and every file's host-less lines counted.
	facts := &g.facts
	facts.Site = g.shared.SettleSite(cfg.Eval)
	facts.SourcesGiven = len(cfg.Robots)+len(cfg.RobotsGit)+len(cfg.RobotsDir) > 0
	facts.DNSGiven = len(cfg.DNSDirs) > 0
	for _, f := range g.files {
		facts.AddReferrers(f.Referrers)
		// A snapshot among the inputs counts as a --dns-dir, as in the
		// local audit.
		facts.DNSGiven = facts.DNSGiven || f.Input.Kind == string(ingest.KindDNS) && !f.Failed
	}
	m.Notices = audit.Notices(facts, catalog)
	return m, nil
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// move moves a part file (rename where both are local, else copy).
func move(ctx context.Context, src, dst string) error {
	if !hasScheme(src) && !hasScheme(dst) {
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.Rename(src, dst); err == nil {
			return nil
		}
	}
	local, cleanup, err := fetchLocal(ctx, src)
	if err != nil {
		return err
	}
	defer cleanup()
	f, err := os.Open(local)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := copyTo(ctx, f, dst); err != nil {
		return err
	}
	if hasScheme(src) {
		removePath(ctx, src)
	} else {
		os.Remove(src)
	}
	return nil
}

func writeFile(ctx context.Context, dst string, data []byte) error {
	if !hasScheme(dst) {
		return os.WriteFile(dst, data, 0o644)
	}
	f, err := os.CreateTemp("", "repaudit-beam-file-")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		return err
	}
	if _, err := f.Seek(0, 0); err != nil {
		return err
	}
	return copyTo(ctx, f, dst)
}

// writeEmptyParts writes a part without rows for each named table.
func writeEmptyParts(ctx context.Context, dest string, names []string) error {
	base, err := os.MkdirTemp("", "repaudit-beam-empty-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(base)
	w, err := output.Create(filepath.Join(base, "t"), output.Options{})
	if err != nil {
		return err
	}
	if err := w.Commit(nil); err != nil {
		return err
	}
	for _, n := range names {
		if err := publish(ctx, filepath.Join(base, "t", n+".parquet"), joinPath(dest, n, "part-00000.parquet")); err != nil {
			return err
		}
	}
	return nil
}

// swapInto moves the finished directory tmp to dir, replacing an old
// output only with force (checked again: the target may have changed).
func swapInto(tmp, dir string, force bool) error {
	if err := checkLocalTarget(dir, force); err != nil {
		return err
	}
	var old string
	if _, err := os.Lstat(dir); err == nil {
		o, err := os.MkdirTemp(filepath.Dir(filepath.Clean(dir)), filepath.Base(dir)+".old-")
		if err != nil {
			return err
		}
		os.Remove(o)
		if err := os.Rename(dir, o); err != nil {
			return err
		}
		old = o
	}
	if err := os.Rename(tmp, dir); err != nil {
		if old != "" {
			os.Rename(old, dir)
		}
		return err
	}
	if old != "" {
		return os.RemoveAll(old)
	}
	return nil
}
