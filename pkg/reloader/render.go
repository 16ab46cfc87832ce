package reloader

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
)

// rendering is the outcome of expanding the config.
type rendering struct {
	// unset lists unset references by name (at most maxUnsetRecorded); unsetCount
	// counts them all.
	unset      []string
	unsetCount int
}

// expandTo streams the config of snap through $(VAR) expansion into w.
func (r *Reloader) expandTo(w io.Writer, snap snapshot) (rendering, error) {
	src, err := snap.input.config()
	if err != nil {
		return rendering{}, fmt.Errorf("decoding %s: %w", r.o.ConfigFile, err)
	}
	e := newExpander(w, r.o.LookupEnv)
	if _, err := io.CopyBuffer(e, src, make([]byte, readBufferSize)); err != nil {
		return rendering{}, err
	}
	if err := e.Close(); err != nil {
		return rendering{}, err
	}
	return rendering{unset: e.unset, unsetCount: e.unsetCount}, nil
}

// outputDiffers reports whether the output file lacks the rendered config of snap,
// comparing as it renders (one pass, stopping at the first difference).
func (r *Reloader) outputDiffers(snap snapshot) (bool, error) {
	if r.o.ConfigOutFile == "" {
		return false, nil
	}
	cur, err := os.Open(r.o.ConfigOutFile)
	if errors.Is(err, fs.ErrNotExist) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("reading current output: %w", err)
	}
	defer cur.Close()
	c := newComparer(cur)
	if _, err := r.expandTo(c, snap); errors.Is(err, errDiffers) {
		return true, nil
	} else if err != nil {
		return false, err
	}
	same, err := c.equal()
	return !same, err
}

// writeOutput renders the config of snap into the output file, atomically, and reports
// unset variables.
func (r *Reloader) writeOutput(snap snapshot) (rendering, error) {
	var out rendering
	err := WriteFileAtomic(r.o.ConfigOutFile, func(w io.Writer) error {
		var err error
		out, err = r.expandTo(w, snap)
		return err
	})
	if err != nil {
		return rendering{}, err
	}
	r.m.expansionErrors.Set(float64(out.unsetCount))
	if out.unsetCount > 0 {
		r.m.unsetEnvVars.Add(float64(out.unsetCount))
		r.log.Warn("config references unset environment variables; left unexpanded",
			"vars", slices.Compact(slices.Sorted(slices.Values(out.unset))), "references", out.unsetCount)
	}
	return out, nil
}
