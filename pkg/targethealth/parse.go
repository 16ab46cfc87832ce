package targethealth

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/lookout-operator/lookout/pkg/promanswer"
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
	return promanswer.Stream(r, "targets", func(key string, dec *json.Decoder) error {
		if key != "activeTargets" {
			return promanswer.Skip(dec)
		}
		return promanswer.Elements(dec, func(dec *json.Decoder) error {
			var t Target
			if err := dec.Decode(&t); err != nil {
				return err
			}
			fn(t)
			return nil
		})
	})
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
