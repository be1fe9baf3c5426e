internal import Catalogue

extension OpenCatalogue {
    /// The walk of a re-run that fills in what images imported by an earlier version lack
    /// (`capture-times`, `colours`): the images `awaiting` names, in batches of 256 by id, each
    /// batch read in its own snapshot, each image handed to `body` in turn. An image `body`
    /// leaves as it was is passed over, not met again in this run. `progress` gets the number
    /// of images looked at so far.
    func forEachImageAwaiting(_ awaiting: (any CatalogueStore, _ after: ImageID?, _ limit: Int) throws -> [ImageID],
                              progress: (Int) -> Void, _ body: (ImageID) throws -> Void) throws {
        var after: ImageID?
        var looked = 0
        while let batch = Optional(try reading { store, _ in try awaiting(store, after, 256) }), let last = batch.last {
            after = last
            for image in batch {
                looked += 1
                progress(looked)
                try body(image)
            }
        }
    }
}
