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
}
