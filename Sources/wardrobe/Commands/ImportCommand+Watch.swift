import CommandLineKit
import Wardrobe

extension ImportCommand {
    /// `import --watch` after the import: a line per file stored, naming it with its label and
    /// confidence, a line of counts for what failed or went, each bad file on stderr, until
    /// Ctrl-C, SIGTERM or SIGHUP (which stop after the current batch; status 130 when that left
    /// files unimported), or until no folder is left to watch (status 1: each deleted or moved
    /// away is an error naming it).
    func keepWatching(_ sync: FolderSync, failedBefore: Bool, console: Console) throws -> ExitStatus {
        let folders = sync.watchedFolders
        console.info("watching \(folders) folder\(folders == 1 ? "" : "s"); Ctrl-C stops")
        var failed = failedBefore
        var cutShort = false
        try sync.run(batch: { batch in
            let report = batch.report
            cutShort = cutShort || report.interrupted
            for folder in batch.rescanned {
                console.info("watch: changes came faster than the system could report them; read \(folder) again")
            }
            for file in batch.files { console.output("watch: " + Self.line(file)) }
            var parts: [String] = []
            if !report.failed.isEmpty { parts.append("\(report.failed.count) failed") }
            if batch.markedMissing > 0 {
                parts.append("\(batch.markedMissing) \(batch.markedMissing == 1 ? "path" : "paths") gone, marked missing")
            }
            if !parts.isEmpty { console.output("watch: " + parts.joined(separator: ", ")) }
            for path in batch.gone { console.info("gone: \(path)") }
            for folder in batch.lost {
                failed = true
                console.error("\(folder): the watched folder was deleted or moved away; it is watched no more")
            }
        }, failure: { failure in
            failed = true
            console.error("\(failure.path): \(failure.reason)")
        })
        if sync.watchedRoots == 0 {
            console.info("stopped watching: no folder is left to watch")
            return .failure
        }
        // A stop that left files unimported (a batch cut short, files not settled yet) is an
        // interruption, said as an import says it: the watch answered 0, "every file was
        // imported or skipped", for an import --watch stopped part-way through 1,500 new photos.
        if cutShort || sync.hasUnsettledFiles {
            console.info("interrupted: run the same command again to import the rest")
            return .interrupted
        }
        console.info("stopped watching")
        return failed ? .partialFailure : .success
    }

    /// `photos/coat.jpg: Coat 87.3%`; a known image under another name says so, and a
    /// person's label stands with the model's beside it.
    static func line(_ file: FolderSync.WatchedFile) -> String {
        let model = "\(file.modelLabel) \(Format.percent(file.confidence))"
        var line = Format.escaped(file.path) + ": "
            + (file.labelledByPerson ? "\(file.label) (a person's label; the model: \(model))" : model)
        if !file.isNewImage { line += ", a known image under another name" }
        return line
    }
}
