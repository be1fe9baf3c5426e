extension Catalogue {
    /// One page of `query`, each row as listings give it. Every shape is an
    /// index walk that stops after `limit` rows: by image id for `newest`;
    /// down the (effective label, confidence) index for the confidence
    /// orders, per label merged when no label is asked for (eleven short
    /// walks instead of a sort of the whole catalogue).
    public func galleryPage(_ query: GalleryQuery) throws -> [CurrentClassification] {
        var arguments: SQLArguments = [:]
        let sql: String
        switch query.order {
        case .newest:
            // The label test is kept out of the index choice (`+`), so `newest` walks image ids
            // instead of sorting a label's images.
            var conditions = query.selection.conditions(&arguments, labelColumn: "+c.effective_label")
            if let after = query.after {
                conditions.append("c.image_id < \(arguments.add(after.image, as: "after"))")
            }
            sql = Catalogue.gallerySelect(conditions) + " ORDER BY c.image_id DESC LIMIT \(arguments.add(query.limit, as: "limit"))"
        case .uncertain, .confident:
            let direction = query.order == .uncertain ? "ASC" : "DESC"
            let labels = query.selection.label.map { [$0] } ?? Array(0...Catalogue.noneLabel)
            let after = query.after.map { (confidence: arguments.add($0.confidence, as: "after_confidence"),
                                           image: arguments.add($0.image, as: "after")) }
            let parts = labels.map { label -> String in
                var one = query.selection
                one.label = label
                var conditions = one.conditions(&arguments)
                if let after {
                    let (loose, strict) = query.order == .uncertain ? (">=", ">") : ("<=", "<")
                    // The first term bounds the index range; the second skips what was shown.
                    conditions.append("c.confidence \(loose) \(after.confidence) AND (c.confidence \(strict) \(after.confidence) "
                                      + "OR c.image_id \(strict) \(after.image))")
                }
                return "SELECT * FROM (" + Catalogue.gallerySelect(conditions)
                    + " ORDER BY c.confidence \(direction), c.image_id \(direction) LIMIT :limit)"
            }
            arguments[":limit"] = query.limit
            sql = parts.joined(separator: " UNION ALL ")
                + " ORDER BY confidence \(direction), image_id \(direction) LIMIT :limit"
        }
        arguments[":machine"] = machine
        return try database.records(sql, arguments, as: ListingColumns.self)
    }

    /// One image's current classification, as listings give it; nil if it has none.
    public func currentClassification(of image: ImageID) throws -> CurrentClassification? {
        let sql = Catalogue.gallerySelect(["c.image_id = :image"])
        return try database.records(sql, [":image": image, ":machine": machine], as: ListingColumns.self).first
    }

    /// Images per effective label, from the counts the triggers keep: one short read.
    /// The triggers keep each count between 0 and the number of images; another program can set
    /// any, and counts whose sum overflows stopped serve's gallery where it added them up.
    public func labelCounts() throws -> [Int: Int] {
        var total = 0
        return Dictionary(uniqueKeysWithValues: try database.rows("SELECT label, images FROM label_counts") {
            let count = $0.int("images")
            let (sum, overflow) = total.addingReportingOverflow(count)
            guard count >= 0, !overflow else {
                throw CatalogueError.strangeValue(path: path, detail: "the image count of label \($0.int("label")): \($0.text("images")), "
                                                    + "where the counts of all labels add up to 0 to \(Int.max)")
            }
            total = sum
            return ($0.int("label"), count)
        })
    }

    /// A listing's columns (see `ListingColumns`) for the images meeting `conditions`.
    private static func gallerySelect(_ conditions: [String]) -> String {
        """
        SELECT \(ListingColumns.list)
        FROM current_classifications AS c CROSS JOIN images AS i ON i.id = c.image_id
        CROSS JOIN classifications AS k ON k.id = c.classification_id
        \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
        """
    }
}

extension Catalogue {
    /// The thumbnail of the image with this content hash: one probe of the
    /// hash's unique index. Nil when no such image or it has no thumbnail.
    public func thumbnail(sha256: SHA256Digest) throws -> [UInt8]? {
        let statement = try database.cachedStatement("SELECT thumbnail FROM images WHERE sha256 = :sha256")
        defer { statement.reset() }
        try statement.bind(sha256.bytes, to: ":sha256")
        guard try statement.step() else { return nil }
        return statement.optionalBlob("thumbnail")
    }
}
