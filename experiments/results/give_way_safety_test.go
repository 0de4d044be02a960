package results

// What must hold while files give way to the runs' numbers on a full
// disk: nothing the batch did not write, or no longer matches what it
// wrote, is removed; nothing is removed after Ctrl-C or for no room; the
// batch's end does not loop. Each failed on fe7ed49, whose run figures
// gave way outside the output directory's rules.

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// giveWayScenario sets up a full disk (room for summary.json only once
// the series and run 3's figure are gone) and
// calls meddle(dir, run3figureBase) once, just before the first failure of
// summary.json, that is just before the give-way.
func giveWayScenario(t *testing.T, ctx context.Context, meddle func(dir, base string)) (dir string, err error) {
	t.Helper()
	e := sweepExperiment(t)
	spare := t.TempDir()
	if _, err := Execute(context.Background(), e, Options{Workers: 1, OutDir: spare, Plot: "svg"}); err != nil {
		t.Fatal(err)
	}
	series, _ := os.Stat(filepath.Join(spare, SeriesFile))
	figures, _ := filepath.Glob(filepath.Join(spare, "plots", "run003*.svg"))
	figure, _ := os.Stat(figures[0])
	base := filepath.Base(figures[0])
	room := usedBytes(t, spare) - series.Size() - figure.Size()/2
	dir = t.TempDir()
	measured = dir
	meddled := false
	testHookSummaryWritten = func() error {
		if !meddled {
			meddled = true
			meddle(dir, base)
		}
		if frozen || usedBytes(t, measured) > room {
			return syscall.ENOSPC
		}
		return nil
	}
	testHookFreeSpace = func() (int64, error) {
		if frozen {
			return frozenFree, nil
		}
		return room - usedBytes(t, measured), nil
	}
	frozen = false
	t.Cleanup(func() { testHookSummaryWritten, testHookFreeSpace = nil, nil })
	// Bounded: a give-way that loops is ended by the deadline.
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	_, err = Execute(ctx, e, Options{Workers: 1, OutDir: dir, Plot: "svg"})
	if ctx.Err() == context.DeadlineExceeded {
		t.Errorf("the batch's end looped until the deadline")
	}
	return dir, err
}

// measured is the directory whose bytes count as the disk's use.
var measured string

// frozen says the disk frees nothing when a file is removed: its free
// space stays frozenFree.
var (
	frozen     bool
	frozenFree int64
)

// plots/ swapped for a link to a user's folder inside DIR: nothing is
// removed through a link, even inside the directory (outdir's rule).
func TestFigureNotRemovedThroughALink(t *testing.T) {
	var mine string
	giveWayScenario(t, context.Background(), func(dir, base string) {
		os.Mkdir(filepath.Join(dir, "mine"), 0o755)
		mine = filepath.Join(dir, "mine", base)
		os.WriteFile(mine, []byte("the user's own file\n"), 0o644)
		os.Rename(filepath.Join(dir, "plots"), filepath.Join(dir, "plots.moved"))
		os.Symlink("mine", filepath.Join(dir, "plots"))
	})
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("the user's file behind the link plots -> mine was removed: %v", err)
	}
}

// The figure replaced by a user's file (another inode) since it was
// written: a file is removed only if it is still the one written.
func TestReplacedFigureNotRemoved(t *testing.T) {
	var fig string
	giveWayScenario(t, context.Background(), func(dir, base string) {
		fig = filepath.Join(dir, "plots", base)
		info, _ := os.Stat(fig)
		os.Remove(fig)
		os.WriteFile(fig, make([]byte, info.Size()), 0o644) // the user's edit, as big
	})
	if _, err := os.Stat(fig); err != nil {
		t.Errorf("the user's file put at %s during the batch was removed: %v", fig, err)
	}
}

// The directory's path now names another directory (the user moved the
// output away and put another in its place): nothing is removed there.
func TestFigureNotRemovedInAnotherDirectory(t *testing.T) {
	var other string
	giveWayScenario(t, context.Background(), func(dir, base string) {
		os.Rename(dir, dir+".moved")
		measured = dir + ".moved" // the disk the batch still writes to stays full
		os.MkdirAll(filepath.Join(dir, "plots"), 0o755)
		other = filepath.Join(dir, "plots", base)
		info, _ := os.Stat(filepath.Join(dir+".moved", "plots", base))
		os.WriteFile(other, make([]byte, info.Size()), 0o644)
	})
	if _, err := os.Stat(other); err != nil {
		t.Errorf("%s, in a directory qcnlab never opened, was removed: %v", other, err)
	}
}

// Ctrl-C as files are about to give way: nothing is removed after it.
func TestNoRemovalOnceCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var fig string
	giveWayScenario(t, ctx, func(dir, base string) {
		fig = filepath.Join(dir, "plots", base)
		old := testHookFreeSpace
		testHookFreeSpace = func() (int64, error) { cancel(); return old() } // Ctrl-C as the give-way reads the disk
	})
	if _, err := os.Stat(fig); err != nil {
		t.Errorf("figure removed after Ctrl-C: %v", err)
	}
}

// The figure gone already when it is to give way (the user removed it,
// another program took its room): the batch's end does not retry forever.
func TestNoEndlessGiveWay(t *testing.T) {
	giveWayScenario(t, context.Background(), func(dir, base string) {
		fig := filepath.Join(dir, "plots", base)
		info, _ := os.Stat(fig)
		os.Remove(fig)
		os.WriteFile(filepath.Join(dir, "other-program"), make([]byte, info.Size()), 0o644)
	})
}

// A removal frees nothing (the figures hard-linked elsewhere on the disk,
// or held by a btrfs or ZFS snapshot): figures are not removed one after
// another while the numbers still do not fit.
func TestNoFiguresRemovedForNothing(t *testing.T) {
	var plotsDir string
	dir, _ := giveWayScenario(t, context.Background(), func(dir, _ string) {
		plotsDir = filepath.Join(dir, "plots")
		frozenFree, _ = testHookFreeSpace()
		frozen = true
	})
	frozen = false
	_, err := os.Stat(filepath.Join(dir, "summary.json"))
	m, _ := filepath.Glob(filepath.Join(plotsDir, "run*.svg"))
	if err != nil && len(m) < 4 {
		t.Errorf("summary.json not written (%v), yet %d of 4 run figures removed", err, 4-len(m))
	}
}
