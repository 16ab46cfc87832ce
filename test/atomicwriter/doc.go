// Package atomicwriter plays the kubelet in tests: it updates a directory the way the
// kubelet updates a mounted Secret or ConfigMap volume (timestamped data directory,
// "..data" symlink swapped with a rename, "key -> ..data/key" symlinks, the previous data
// directory removed), so suites can prove that watchers handle that update pattern, where
// no plain write event ever reaches the visible file names.
package atomicwriter
