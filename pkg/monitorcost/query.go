package monitorcost

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/lookout-operator/lookout/pkg/promanswer"
	"github.com/lookout-operator/lookout/pkg/targethealth"
)

// The series the join reads.
const (
	// SamplesMetric counts the samples of a scrape kept after metric relabeling: what
	// sample_limit is compared with.
	SamplesMetric = "scrape_samples_post_metric_relabeling"
	// SeriesAddedMetric counts the series a scrape added to the head.
	SeriesAddedMetric = "scrape_series_added"
)

// Query is the instant query that reads both series of every target of a shard.
const Query = `{__name__=~"` + SamplesMetric + `|` + SeriesAddedMetric + `"}`

// Sample is one series of an instant query answer, its labels reduced to a hash.
type Sample struct {
	Name   string
	Labels targethealth.LabelSetHash
	Value  float64
}

// ParseVector reads an answer of /api/v1/query whose result is a vector and calls fn for
// every series, one at a time. A Prometheus error answer is an error, and so is a result
// of another type.
func ParseVector(r io.Reader, fn func(Sample)) error {
	return promanswer.Stream(r, "query", func(key string, dec *json.Decoder) error {
		switch key {
		case "resultType":
			var t string
			if err := dec.Decode(&t); err != nil {
				return err
			}
			if t != "vector" {
				return fmt.Errorf("result type %q, want vector", t)
			}
			return nil
		case "result":
			return promanswer.Elements(dec, func(dec *json.Decoder) error {
				var e element
				if err := dec.Decode(&e); err != nil {
					return err
				}
				fn(Sample{Name: e.Metric.name, Labels: e.Metric.hash, Value: float64(e.Value)})
				return nil
			})
		}
		return promanswer.Skip(dec)
	})
}

// element is one series of a vector result; its parts decode in place, without copies
// of the label set.
type element struct {
	Metric metric      `json:"metric"`
	Value  sampleValue `json:"value"`
}

// metric is a series' labels: __name__ and the hash of the others.
type metric struct {
	name string
	hash targethealth.LabelSetHash
}

func (m *metric) UnmarshalJSON(b []byte) error {
	h, name, err := targethealth.HashLabelObject(b)
	m.hash, m.name = h, name
	return err
}

// sampleValue is the value of [<time>, "<value>"].
type sampleValue float64

func (v *sampleValue) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	end := bytes.LastIndexByte(b, '"')
	start := -1
	if end > 0 {
		start = bytes.LastIndexByte(b[:end], '"')
	}
	if len(b) < 2 || b[0] != '[' || b[len(b)-1] != ']' || start < 0 || bytes.IndexByte(b[:start], ',') < 0 {
		return fmt.Errorf("a sample value: want [<time>, \"<value>\"], got %.40s", b)
	}
	f, err := strconv.ParseFloat(string(b[start+1:end]), 64)
	if err != nil {
		return fmt.Errorf("a sample value: %w", err)
	}
	*v = sampleValue(f)
	return nil
}
