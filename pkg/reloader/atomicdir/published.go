package atomicdir

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
)

// dataDirName matches the names of the data directories the writer (and the kubelet)
// creates: the timestampLayout followed by os.MkdirTemp's numeric suffix.
var dataDirName = regexp.MustCompile(`^\.\.\d{4}_\d{2}_\d{2}_\d{2}_\d{2}_\d{2}\.\d+$`)

// published is what DataLink currently points at.
type published struct {
	// name is the data directory, a direct child of the target directory; empty when
	// there is none the writer may read or remove: no DataLink, a dangling one, or one
	// pointing at anything the writer did not create (see readPublished).
	name string
	// files and dirs are the regular files and directories under name, by path
	// relative to it.
	files, dirs map[string]bool
	// irregular is set when name holds anything else (a symlink, a device): the
	// writer never creates those, so the directory was tampered with.
	irregular bool
}

// readPublished inspects DataLink in dir without following any link it did not create.
// DataLink must be a symlink; its target is taken as the writer's only when it is a
// single name of the data directory pattern that is itself a real directory (not a
// symlink). Anything else (an absolute or relative path out of dir, a planted link to
// another directory) is left alone: the next publish replaces the link itself, and
// nothing it pointed at is read or removed.
func readPublished(dir string) (published, error) {
	link := filepath.Join(dir, DataLink)
	st, err := os.Lstat(link)
	if errors.Is(err, fs.ErrNotExist) {
		return published{}, nil
	}
	if err != nil {
		return published{}, fmt.Errorf("inspecting %s: %w", link, err)
	}
	if st.Mode()&fs.ModeSymlink == 0 {
		return published{}, fmt.Errorf("%s is a %s, not a symlink: the directory was not written by this writer", link, kind(st.Mode()))
	}
	target, err := os.Readlink(link)
	if err != nil {
		return published{}, fmt.Errorf("reading %s: %w", link, err)
	}
	if !dataDirName.MatchString(target) {
		return published{}, nil
	}
	st, err = os.Lstat(filepath.Join(dir, target))
	if errors.Is(err, fs.ErrNotExist) {
		return published{}, nil
	}
	if err != nil {
		return published{}, fmt.Errorf("inspecting %s: %w", target, err)
	}
	if !st.IsDir() {
		return published{}, nil
	}
	p := published{name: target, files: map[string]bool{}, dirs: map[string]bool{}}
	root := filepath.Join(dir, target)
	// WalkDir reports symlinks as such and never descends through them.
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if path == root {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		switch {
		case d.Type().IsRegular():
			p.files[rel] = true
		case d.IsDir():
			p.dirs[rel] = true
		default:
			p.irregular = true
		}
		return nil
	})
	if err != nil {
		return published{}, fmt.Errorf("listing published files in %s: %w", target, err)
	}
	return p, nil
}

// holds reports whether the published directory holds exactly payload: the same
// regular files with the same content, no other file or directory, nothing irregular.
func (p published) holds(dir string, payload map[string][]byte) (bool, error) {
	if p.name == "" || p.irregular || len(p.files) != len(payload) {
		return false, nil
	}
	parents := map[string]bool{}
	for key := range payload {
		if !p.files[key] {
			return false, nil
		}
		for d := filepath.Dir(key); d != "."; d = filepath.Dir(d) {
			parents[d] = true
		}
	}
	if len(parents) != len(p.dirs) {
		return false, nil
	}
	for key, data := range payload {
		old, err := os.ReadFile(filepath.Join(dir, p.name, key))
		if err != nil {
			return false, fmt.Errorf("reading published %s: %w", key, err)
		}
		if !bytes.Equal(old, data) {
			return false, nil
		}
	}
	return true, nil
}

// kind names a file type for an error message.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m.IsRegular():
		return "regular file"
	default:
		return m.Type().String()
	}
}
