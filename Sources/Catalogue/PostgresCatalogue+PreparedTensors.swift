extension PostgresCatalogue {
    /// As `Catalogue.preparedTensor`.
    public func preparedTensor(of image: ImageID, recipe: Recipe) throws -> [Float]? {
        try rows("""
            SELECT tensor FROM prepared_tensors
            WHERE image_id = $1 AND recipe_name = $2 AND recipe_version = $3
            """, [image, recipe.name, recipe.version]) { row in
            row.blob("tensor").withUnsafeBytes { Catalogue.floats(littleEndian: $0) }
        }.first
    }
}
