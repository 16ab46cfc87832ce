package monitorcost

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

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
	dec := json.NewDecoder(r)
	if err := delim(dec, '{'); err != nil {
		return err
	}
	var status, apiErr string
	for dec.More() {
		k, err := objectKey(dec)
		if err != nil {
			return err
		}
		switch k {
		case "status":
			err = dec.Decode(&status)
		case "error":
			err = dec.Decode(&apiErr)
		case "data":
			err = parseData(dec, fn)
		default:
			var skip json.RawMessage
			err = dec.Decode(&skip)
		}
		if err != nil {
			return fmt.Errorf("decoding the query answer: %w", err)
		}
	}
	if status != "" && status != "success" {
		return fmt.Errorf("prometheus answered %s: %s", status, apiErr)
	}
	return nil
}

func parseData(dec *json.Decoder, fn func(Sample)) error {
	if err := delim(dec, '{'); err != nil {
		return err
	}
	for dec.More() {
		k, err := objectKey(dec)
		if err != nil {
			return err
		}
		switch k {
		case "resultType":
			var t string
			if err := dec.Decode(&t); err != nil {
				return err
			}
			if t != "vector" {
				return fmt.Errorf("result type %q, want vector", t)
			}
		case "result":
			tok, err := dec.Token()
			if err != nil {
				return err
			}
			if tok == nil {
				continue
			}
			if d, ok := tok.(json.Delim); !ok || d != '[' {
				return fmt.Errorf("result: want an array, got %v", tok)
			}
			for dec.More() {
				var e element
				if err := dec.Decode(&e); err != nil {
					return err
				}
				fn(Sample{Name: e.Metric.name, Labels: e.Metric.hash, Value: float64(e.Value)})
			}
			if _, err := dec.Token(); err != nil { // ]
				return err
			}
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return err
			}
		}
	}
	_, err := dec.Token() // }
	return err
}

func delim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("decoding the query answer: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return fmt.Errorf("decoding the query answer: want %q, got %v", want, tok)
	}
	return nil
}

func objectKey(dec *json.Decoder) (string, error) {
	tok, err := dec.Token()
	if err != nil {
		return "", err
	}
	k, ok := tok.(string)
	if !ok {
		return "", fmt.Errorf("want a key, got %v", tok)
	}
	return k, nil
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
