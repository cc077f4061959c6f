// The library's one import for the command, the fixture API and the tests: the pipeline's targets, re-exported.
// Each target's dependencies are in Package.swift; this module adds no code of its own.
@_exported import BoardArchiveCrawl
@_exported import BoardArchiveModel
@_exported import BoardArchiveRender
@_exported import BoardArchiveSearch
@_exported import BoardArchiveSite
@_exported import BoardArchiveStore
