/// What a run's worker reads for a take of images (`CatalogueStore.preparedTensors`,
/// `thumbnails(of:)`): PostgreSQL answers each in one statement, a round trip for the take.
extension CatalogueStore {
    /// Asked one image at a time: an SQLite catalogue answers each in microseconds.
    public func preparedTensors(of images: [ImageID], recipe: Recipe) throws -> [ImageID: [Float]] {
        var found: [ImageID: [Float]] = [:]
        for image in images { found[image] = try preparedTensor(of: image, recipe: recipe) }
        return found
    }

    /// Asked one image at a time, as `preparedTensors`.
    public func thumbnails(of images: [ImageID]) throws -> [ImageID: [UInt8]] {
        var found: [ImageID: [UInt8]] = [:]
        for image in images { found[image] = try thumbnail(of: image) }
        return found
    }
}
