package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// clockTicks is USER_HZ, the unit of utime and stime in /proc/<pid>/stat; Linux reports
// them in 1/100 s on every architecture it exports to user space.
const clockTicks = 100

// procSample is one reading of a process's memory and CPU.
type procSample struct {
	at  time.Time
	rss uint64        // VmRSS, bytes
	hwm uint64        // VmHWM (peak resident), bytes
	cpu time.Duration // utime + stime
}

// readProc reads /proc/<pid>/status and /proc/<pid>/stat.
func readProc(pid int) (procSample, error) {
	s := procSample{at: time.Now()}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return s, err
	}
	sc := bufio.NewScanner(bytes.NewReader(status))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "VmRSS:"):
			s.rss = kib(line)
		case strings.HasPrefix(line, "VmHWM:"):
			s.hwm = kib(line)
		}
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return s, err
	}
	// The command name (field 2) may hold spaces; the fields after its closing
	// parenthesis start with field 3 (state), so utime (14) and stime (15) are at 11, 12.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return s, fmt.Errorf("/proc/%d/stat: unexpected format", pid)
	}
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 13 {
		return s, fmt.Errorf("/proc/%d/stat: unexpected format", pid)
	}
	ut, err1 := strconv.ParseUint(f[11], 10, 64)
	st, err2 := strconv.ParseUint(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return s, fmt.Errorf("/proc/%d/stat: unexpected format", pid)
	}
	s.cpu = time.Duration(ut+st) * time.Second / clockTicks
	return s, nil
}

// kib parses "VmRSS:\t  1234 kB" into bytes.
func kib(line string) uint64 {
	f := strings.Fields(line)
	if len(f) < 2 {
		return 0
	}
	v, _ := strconv.ParseUint(f[1], 10, 64)
	return v * 1024
}

// sampler reads a process's /proc entries at a fixed interval until stopped or the
// process is gone.
type sampler struct {
	pid      int
	mu       sync.Mutex
	all      []procSample
	done     chan struct{}
	stop     chan struct{}
	stopOnce sync.Once
}

func startSampler(pid int, every time.Duration) *sampler {
	s := &sampler{pid: pid, done: make(chan struct{}), stop: make(chan struct{})}
	go func() {
		defer close(s.done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			if _, err := s.sample(); err != nil {
				return
			}
			select {
			case <-s.stop:
				return
			case <-t.C:
			}
		}
	}()
	return s
}

// sample takes a reading now and records it.
func (s *sampler) sample() (procSample, error) {
	p, err := readProc(s.pid)
	if err != nil {
		return p, err
	}
	s.mu.Lock()
	s.all = append(s.all, p)
	s.mu.Unlock()
	return p, nil
}

// now takes a reading now, or returns the last one when the process is gone.
func (s *sampler) now() procSample {
	if p, err := s.sample(); err == nil {
		return p
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.all) == 0 {
		return procSample{at: time.Now()}
	}
	return s.all[len(s.all)-1]
}

// between returns the samples taken in [from, to].
func (s *sampler) between(from, to time.Time) []procSample {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []procSample
	for _, p := range s.all {
		if !p.at.Before(from) && !p.at.After(to) {
			out = append(out, p)
		}
	}
	return out
}

// maxRSS is the highest VmRSS sampled and when.
func (s *sampler) maxRSS() (uint64, time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var m uint64
	var at time.Time
	for _, p := range s.all {
		if p.rss > m {
			m, at = p.rss, p.at
		}
	}
	return m, at
}

func (s *sampler) halt() {
	s.stopOnce.Do(func() { close(s.stop) })
	<-s.done
}
