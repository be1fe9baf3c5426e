import Files
import Foundation

/// One batch of a run's writes, made inside `Catalogue.writeBatch(of:_:)`:
/// everything stored through it is committed in one transaction together
/// with the run's counts as the batch leaves them, or, on any error, none of
/// it. Its functions are the catalogue's batch writes (`insertImages`,
/// `addClassifications`, `storePaths`, `recordFailure`) for that one run and
/// that one transaction; it is used only inside the body it is given to.
public struct RunBatch {
    let catalogue: Catalogue
    let context: Catalogue.RunContext
    /// Every row of the batch carries this time.
    let now: Int64

    public var run: RunID { context.run }

    /// As `Catalogue.insertImages`, inside the batch.
    @discardableResult
    public func insertImages(_ images: [NewImage], known: KnownContent) throws -> [InsertedImage] {
        for image in images {
            if let classification = image.classification { try Catalogue.validate(classification) }
        }
        return try catalogue.storeImages(images, context: context, known: known, now: now)
    }

    /// As `Catalogue.addClassifications`, inside the batch.
    @discardableResult
    public func addClassifications(_ items: [(image: ImageID, classification: NewClassification)]) throws
        -> [ClassificationID?] {
        for item in items { try Catalogue.validate(item.classification) }
        return try catalogue.storeClassifications(items, context: context, now: now)
    }

    /// As `Catalogue.storePaths`, inside the batch.
    @discardableResult
    public func recordPaths(_ files: [(file: SeenFile, sha256: SHA256Digest)]) throws -> [RecordedPath?] {
        try catalogue.storePaths(files, now: now)
    }

    /// As `Catalogue.recordFailure`, inside the batch, under its run.
    public func recordFailure(path: String, reason: String, file: SeenFile? = nil) throws {
        try catalogue.storeFailure(path: path, reason: reason, run: context.run, file: file, now: now)
    }
}
