extension PostgresCatalogue {
    /// As `Catalogue.preparedTensor`.
    public func preparedTensor(of image: ImageID, recipe: Recipe) throws -> [Float]? {
        try rows("""
            SELECT tensor FROM prepared_tensors
            WHERE image_id = :image AND recipe_name = :name AND recipe_version = :version
            """, [":image": image, ":name": recipe.name, ":version": recipe.version]) { row in
            row.blob("tensor").withUnsafeBytes { Catalogue.floats(littleEndian: $0) }
        }.first
    }

    /// As `CatalogueStore.preparedTensors`, in one statement: a round trip each would weigh
    /// as much as classifying the image.
    public func preparedTensors(of images: [ImageID], recipe: Recipe) throws -> [ImageID: [Float]] {
        guard !images.isEmpty else { return [:] }
        let rows = try rows("""
            SELECT image_id, tensor FROM prepared_tensors
            WHERE image_id = ANY(:images) AND recipe_name = :name AND recipe_version = :version
            """, [":images": PostgresValue.ids(images.map(\.rawValue)), ":name": recipe.name, ":version": recipe.version]) { row in
            (ImageID(row.int64("image_id")), row.blob("tensor").withUnsafeBytes { Catalogue.floats(littleEndian: $0) })
        }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    /// As `CatalogueStore.thumbnails(of:)`, in one statement.
    public func thumbnails(of images: [ImageID]) throws -> [ImageID: [UInt8]] {
        guard !images.isEmpty else { return [:] }
        let rows = try rows("SELECT id, thumbnail FROM images WHERE id = ANY(:images) AND thumbnail IS NOT NULL",
                            [":images": PostgresValue.ids(images.map(\.rawValue))]) { row in
            (ImageID(row.int64("id")), row.blob("thumbnail"))
        }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }
}
