extension Catalogue {
    /// The tensor kept for `image` under `recipe` (`prepared_tensors`): the values the model
    /// took when a run under that recipe classified it; nil when none is kept.
    public func preparedTensor(of image: ImageID, recipe: Recipe) throws -> [Float]? {
        let statement = try database.cachedStatement("""
            SELECT tensor FROM prepared_tensors
            WHERE image_id = :image_id AND recipe_name = :recipe_name AND recipe_version = :recipe_version
            """)
        defer { statement.reset() }
        try statement.bind(image, to: ":image_id")
        try statement.bind(recipe.name, to: ":recipe_name")
        try statement.bind(recipe.version, to: ":recipe_version")
        guard try statement.step() else { return nil }
        return statement.withBlob(0) { Catalogue.floats(littleEndian: $0) }
    }
}
