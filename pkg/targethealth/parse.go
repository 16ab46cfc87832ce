package targethealth

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Target is what is kept of one active target of /api/v1/targets.
type Target struct {
	ScrapePool string `json:"scrapePool"`
	Health     string `json:"health"` // up, down, unknown (not scraped yet)
	LastError  string `json:"lastError"`
	// Labels is the hash of the target's labels after relabeling (pkg/monitorcost joins
	// it with the series of the target's scrapes).
	Labels LabelSetHash `json:"labels"`
}

// ParseTargets reads an answer of /api/v1/targets (state=active or any) and calls fn
// for every active target, one at a time: the answer, tens of megabytes with ten
// thousand targets and their discovered labels, is never held whole. droppedTargets and
// every other field are skipped. A Prometheus error answer ("status":"error") is an
// error.
func ParseTargets(r io.Reader, fn func(Target)) error {
	dec := json.NewDecoder(r)
	if err := expectDelim(dec, '{'); err != nil {
		return err
	}
	var status, apiErr string
	for dec.More() {
		key, err := objectKey(dec)
		if err != nil {
			return err
		}
		switch key {
		case "status":
			if err := dec.Decode(&status); err != nil {
				return fmt.Errorf("decoding status: %w", err)
			}
		case "error":
			if err := dec.Decode(&apiErr); err != nil {
				return fmt.Errorf("decoding error: %w", err)
			}
		case "data":
			if err := parseData(dec, fn); err != nil {
				return err
			}
		default:
			if err := skip(dec); err != nil {
				return err
			}
		}
	}
	if status != "" && status != "success" {
		return fmt.Errorf("prometheus answered %s: %s", status, apiErr)
	}
	return nil
}

// parseData walks the "data" object and decodes activeTargets one by one.
func parseData(dec *json.Decoder, fn func(Target)) error {
	if err := expectDelim(dec, '{'); err != nil {
		return fmt.Errorf("data: %w", err)
	}
	for dec.More() {
		key, err := objectKey(dec)
		if err != nil {
			return err
		}
		if key != "activeTargets" {
			if err := skip(dec); err != nil {
				return err
			}
			continue
		}
		tok, err := dec.Token()
		if err != nil {
			return fmt.Errorf("activeTargets: %w", err)
		}
		if tok == nil { // null
			continue
		}
		if d, ok := tok.(json.Delim); !ok || d != '[' {
			return fmt.Errorf("activeTargets: want an array, got %v", tok)
		}
		for dec.More() {
			var t Target
			if err := dec.Decode(&t); err != nil {
				return fmt.Errorf("decoding an active target: %w", err)
			}
			fn(t)
		}
		if _, err := dec.Token(); err != nil { // ]
			return fmt.Errorf("activeTargets: %w", err)
		}
	}
	_, err := dec.Token() // }
	return err
}

func expectDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("decoding the targets answer: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return fmt.Errorf("decoding the targets answer: want %q, got %v", want, tok)
	}
	return nil
}

func objectKey(dec *json.Decoder) (string, error) {
	tok, err := dec.Token()
	if err != nil {
		return "", fmt.Errorf("decoding the targets answer: %w", err)
	}
	k, ok := tok.(string)
	if !ok {
		return "", fmt.Errorf("decoding the targets answer: want a key, got %v", tok)
	}
	return k, nil
}

// skip discards the next value, however deep.
func skip(dec *json.Decoder) error {
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return fmt.Errorf("decoding the targets answer: %w", err)
	}
	return nil
}

// ParseScrapePools reads an answer of /api/v1/scrape_pools: the names of every scrape
// pool of the running configuration, with or without targets.
func ParseScrapePools(r io.Reader) ([]string, error) {
	var ans struct {
		Status string `json:"status"`
		Error  string `json:"error"`
		Data   struct {
			ScrapePools []string `json:"scrapePools"`
		} `json:"data"`
	}
	if err := json.NewDecoder(r).Decode(&ans); err != nil {
		return nil, fmt.Errorf("decoding the scrape pools answer: %w", err)
	}
	if ans.Status != "success" {
		return nil, errors.New("prometheus answered " + ans.Status + ": " + ans.Error)
	}
	return ans.Data.ScrapePools, nil
}
