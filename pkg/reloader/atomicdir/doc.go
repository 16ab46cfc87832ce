// Package atomicdir projects a set of files into a directory the way the kubelet updates
// Secret and ConfigMap volumes: the data goes into a fresh timestamped directory, a
// "..data" symlink is swapped to it with one rename, every key is a symlink through
// "..data", and the previous directory is removed. A reader following the key symlinks
// therefore sees either the whole old set or the whole new set, never a mix.
//
// Keys are checked with the kubelet AtomicWriter's rules and must also be clean paths
// (validate.go). The writer never follows, reads through or removes a symlink it did not
// create (published.go, links.go), so a directory shared with a less trusted container
// cannot make it delete or expose files elsewhere.
package atomicdir
