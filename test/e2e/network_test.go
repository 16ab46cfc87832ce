//go:build e2e

package e2e

import (
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// The pod network: a bridge in the suite's network namespace with the gateway address,
// one veth pair per pod (the pod's end is its eth0), and addresses on the bridge itself
// for what runs in the suite's namespace (the sample app, Alertmanager). The API server
// and etcd stay on 127.0.0.1 of the suite's namespace.
const (
	bridge    = "e2ebr0"
	gateway   = "10.77.0.1"
	podPrefix = 16
	// bridgeMAC is set on the bridge so that it keeps one hardware address. Left to itself
	// a Linux bridge takes the lowest address of its ports, so stopping a pod (its veth
	// leaves the bridge) can change it, and the other pods' neighbour entries for the
	// suite's addresses (the sample app, a webhook receiver) point at a stale address
	// until they expire: new connections hang for seconds.
	bridgeMAC = "02:77:00:00:00:01"
)

// setUpNetwork brings up loopback and the bridge in the suite's fresh namespace.
func setUpNetwork() error {
	for _, args := range [][]string{
		{"link", "set", "lo", "up"},
		{"link", "add", bridge, "type", "bridge"},
		{"link", "set", bridge, "address", bridgeMAC},
		{"addr", "add", fmt.Sprintf("%s/%d", gateway, podPrefix), "dev", bridge},
		{"link", "set", bridge, "up"},
	} {
		if err := run("ip", args...); err != nil {
			return fmt.Errorf("setting up the pod network: %w", err)
		}
	}
	return nil
}

// ipam hands out pod addresses: 10.77.0.10, 10.77.0.11, ...
type ipam struct {
	mu   sync.Mutex
	next int
}

func newIPAM() *ipam { return &ipam{next: 10} }

func (a *ipam) allocate() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := a.next
	a.next++
	return fmt.Sprintf("10.77.%d.%d", n/250, n%250+1)
}

// addHostAddress puts ip on the bridge so that a listener of the suite's namespace can
// serve pods on it.
func addHostAddress(ip string) error {
	return run("ip", "addr", "add", ip+"/32", "dev", bridge)
}

// sandbox is a pod's network namespace, held by a pause process: eth0 with the pod
// address on the bridge, loopback, and on 127.0.0.1:<api port> a forwarder to the API
// server (what the kubernetes Service and kube-proxy give a real pod: the serving
// certificate covers 127.0.0.1, so in-cluster clients verify it as they would).
type sandbox struct {
	ip     string
	pause  *proc
	netns  string // /proc/<pid>/ns/net
	apiFwd net.Listener
}

func newSandbox(name, ip, dir, apiHost, apiPort string) (*sandbox, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self)
	cmd.Env = []string{envPause + "=1"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNET}
	pause, err := startProc(name+"/pause", filepath.Join(dir, "pause.log"), cmd)
	if err != nil {
		return nil, err
	}
	sb := &sandbox{ip: ip, pause: pause, netns: fmt.Sprintf("/proc/%d/ns/net", pause.Pid())}
	pid := fmt.Sprint(pause.Pid())
	hostEnd := "vp" + pid // at most 15 characters
	steps := [][]string{
		{"ip", "link", "add", hostEnd, "type", "veth", "peer", "name", "eth0", "netns", pid},
		{"ip", "link", "set", hostEnd, "master", bridge, "up"},
		{"nsenter", "--net=" + sb.netns, "ip", "link", "set", "lo", "up"},
		{"nsenter", "--net=" + sb.netns, "ip", "addr", "add", fmt.Sprintf("%s/%d", ip, podPrefix), "dev", "eth0"},
		{"nsenter", "--net=" + sb.netns, "ip", "link", "set", "eth0", "up"},
	}
	for _, st := range steps {
		if err := run(st[0], st[1:]...); err != nil {
			sb.close()
			return nil, err
		}
	}
	sb.apiFwd, err = listenIn(sb.netns, net.JoinHostPort("127.0.0.1", apiPort))
	if err != nil {
		sb.close()
		return nil, fmt.Errorf("API forwarder in the pod's namespace: %w", err)
	}
	go forward(sb.apiFwd, net.JoinHostPort(apiHost, apiPort))
	return sb, nil
}

// close stops the forwarder and the pause process; the namespace and its veth go with it.
func (sb *sandbox) close() {
	if sb.apiFwd != nil {
		sb.apiFwd.Close()
	}
	_ = sb.pause.Stop(5e9)
}

// listenIn opens a TCP listener inside another network namespace. The socket keeps
// belonging to that namespace after the thread that created it switched back.
func listenIn(netns, addr string) (net.Listener, error) {
	type result struct {
		l   net.Listener
		err error
	}
	ch := make(chan result, 1)
	go func() {
		runtime.LockOSThread()
		// The thread is unlocked only when it is back in the suite's namespace; otherwise it
		// ends with this goroutine.
		orig, err := os.Open(fmt.Sprintf("/proc/self/task/%d/ns/net", unix.Gettid()))
		if err != nil {
			ch <- result{err: err}
			return
		}
		defer orig.Close()
		target, err := os.Open(netns)
		if err != nil {
			ch <- result{err: err}
			return
		}
		defer target.Close()
		if err := unix.Setns(int(target.Fd()), unix.CLONE_NEWNET); err != nil {
			ch <- result{err: fmt.Errorf("setns %s: %w", netns, err)}
			return
		}
		l, lerr := net.Listen("tcp", addr)
		if err := unix.Setns(int(orig.Fd()), unix.CLONE_NEWNET); err != nil {
			if l != nil {
				l.Close()
			}
			ch <- result{err: fmt.Errorf("returning to the suite's namespace: %w", err)}
			return
		}
		runtime.UnlockOSThread()
		ch <- result{l: l, err: lerr}
	}()
	r := <-ch
	return r.l, r.err
}

// forward copies every connection accepted on l to target, both ways.
func forward(l net.Listener, target string) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			d, err := net.Dial("tcp", target)
			if err != nil {
				return
			}
			go func() {
				_, _ = io.Copy(d, c)
				d.Close()
				c.Close()
			}()
			_, _ = io.Copy(c, d)
			d.Close()
		}()
	}
}
