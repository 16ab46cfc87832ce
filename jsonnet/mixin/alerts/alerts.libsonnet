(import 'operator.libsonnet') +
(import 'reloader.libsonnet') +
(import 'prometheus.libsonnet') +
(import 'alertmanager.libsonnet')
