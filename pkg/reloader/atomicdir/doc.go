// Package atomicdir projects a set of files into a directory the way the kubelet updates
// Secret and ConfigMap volumes: the data goes into a fresh timestamped directory, a
// "..data" symlink is swapped to it with one rename, every key is a symlink through
// "..data", and the previous directory is removed. A reader following the key symlinks
// therefore sees either the whole old set or the whole new set, never a mix.
package atomicdir
