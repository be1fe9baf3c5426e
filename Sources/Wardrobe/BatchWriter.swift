import Catalogue

/// The writer side of an import: gathers finished images and commits them in
/// batches, one transaction each, and records the other paths of content it
/// has stored. Only the thread that owns the catalogue connection uses it.
struct BatchWriter {
    enum Result {
        case stored(label: Int)
        case pathAdded
        case failed(ImportReport.Failure)
    }

    let catalogue: Catalogue
    let run: RunID
    let batchSize: Int
    private var batch: [NewImage] = []
    /// Files whose content another file of this import is bringing in, by hash.
    private var waiting: [SHA256Digest: [FoundFile]] = [:]
    /// Hashes whose first file failed, with the reason, for their duplicates.
    private var failedHashes: [SHA256Digest: String] = [:]

    init(catalogue: Catalogue, run: RunID, batchSize: Int) {
        self.catalogue = catalogue
        self.run = run
        self.batchSize = batchSize
    }

    mutating func add(_ outcome: ImportWork.Outcome) throws -> [Result] {
        switch outcome.kind {
        case .new(let image, _):
            batch.append(image)
            return batch.count >= batchSize ? try flush() : []
        case .known(let image):
            try catalogue.recordPath(outcome.file.seen, of: image)
            return [.pathAdded]
        case .sameAsPending(let sha256):
            if let stored = try catalogue.image(sha256: sha256) {
                try catalogue.recordPath(outcome.file.seen, of: stored.id)
                return [.pathAdded]
            }
            if let reason = failedHashes[sha256] {
                return [.failed(.init(path: outcome.file.path, reason: reason))]
            }
            waiting[sha256, default: []].append(outcome.file)
            return []
        case .failed(let reason, let sha256):
            var results: [Result] = [.failed(.init(path: outcome.file.path, reason: reason))]
            if let sha256 {
                failedHashes[sha256] = reason
                for file in waiting.removeValue(forKey: sha256) ?? [] {
                    results.append(.failed(.init(path: file.path, reason: reason)))
                }
            }
            return results
        }
    }

    /// Commits the batch, then the paths that were waiting for it.
    mutating func flush() throws -> [Result] {
        guard !batch.isEmpty else { return [] }
        let images = batch
        batch.removeAll(keepingCapacity: true)
        let inserted = try catalogue.insertImages(images, run: run)
        var results: [Result] = []
        for (image, stored) in zip(images, inserted) {
            results.append(stored.isNew ? .stored(label: image.classification!.label) : .pathAdded)
            for file in waiting.removeValue(forKey: image.sha256) ?? [] {
                try catalogue.recordPath(file.seen, of: stored.image)
                results.append(.pathAdded)
            }
        }
        return results
    }

    /// The last batch; anything still waiting had no first file to wait for.
    mutating func finish() throws -> [Result] {
        var results = try flush()
        for file in waiting.values.joined() {
            results.append(.failed(.init(path: file.path, reason: "same content as a file that was not imported")))
        }
        waiting.removeAll()
        return results
    }
}
