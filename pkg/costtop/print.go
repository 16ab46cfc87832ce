package costtop

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/lookout-operator/lookout/pkg/monitorcost"
)

// WriteJSON writes the report as indented JSON (exact figures).
func WriteJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteText writes, for each Prometheus, its total and two tables: the monitors and the
// namespaces with the most samples per scrape (exact figures).
func WriteText(w io.Writer, r *Report) {
	if len(r.Prometheuses) == 0 {
		fmt.Fprintln(w, "no Prometheus found")
		return
	}
	n := monitorcost.Thousands
	for i, p := range r.Prometheuses {
		if i > 0 {
			fmt.Fprintln(w)
		}
		if p.Error != "" {
			fmt.Fprintf(w, "Prometheus %s/%s: not measured: %s\n", p.Namespace, p.Name, p.Error)
			continue
		}
		fmt.Fprintf(w, "Prometheus %s/%s (%d shard%s): %s samples, %s series added per scrape, %d targets\n",
			p.Namespace, p.Name, p.Shards, plural(int(p.Shards)), n(p.Total.Samples), n(p.Total.SeriesAdded), p.Total.Targets)
		if p.Unmatched > 0 {
			fmt.Fprintf(w, "(%d series of jobs no monitor generated are not counted)\n", p.Unmatched)
		}
		if len(p.Monitors) == 0 {
			fmt.Fprintln(w, "no monitor has active targets")
			continue
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "SAMPLES\tSERIES ADDED\tTARGETS\tBUSIEST TARGET\tMONITOR")
		for _, m := range p.Monitors {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s %s/%s\n", n(m.Samples), n(m.SeriesAdded), m.Targets, n(m.MaxTargetSamples), m.Kind, m.Namespace, m.Name)
		}
		_ = tw.Flush()
		fmt.Fprintln(w)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "SAMPLES\tSERIES ADDED\tTARGETS\tNAMESPACE")
		for _, m := range p.Namespaces {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\n", n(m.Samples), n(m.SeriesAdded), m.Targets, m.Namespace)
		}
		_ = tw.Flush()
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
