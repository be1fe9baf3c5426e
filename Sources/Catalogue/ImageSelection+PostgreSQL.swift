import Foundation

extension ImageSelection {
    /// `conditions` in PostgreSQL's SQL: GLOB is a regular expression (`PostgresGlob`), and
    /// each value is added to `parameters`, which gives its placeholder.
    func postgresConditions(_ parameters: inout PostgresParameters) -> [String] {
        var conditions: [String] = []
        if let label { conditions.append("c.effective_label = \(parameters.add(label))") }
        if let corrected {
            conditions.append(corrected ? "c.corrected_label IS NOT NULL" : "c.corrected_label IS NULL")
        }
        if missing {
            conditions.append("NOT EXISTS (SELECT 1 FROM image_paths WHERE image_id = c.image_id AND missing = 0)")
        }
        if let pathPattern {
            conditions.append("c.image_id IN (SELECT image_id FROM image_paths WHERE path ~ "
                              + "\(parameters.add(PostgresGlob.regex(pathPattern))))")
        }
        if let folder {
            // A range of the path's bytes (COLLATE "C"), as in SQLite.
            conditions.append("c.image_id IN (SELECT image_id FROM image_paths WHERE path >= \(parameters.add(folder + "/")) "
                              + "AND path < \(parameters.add(folder + "0")))")
        }
        if let confidence {
            conditions.append("c.confidence BETWEEN \(parameters.add(confidence.lowerBound)) AND \(parameters.add(confidence.upperBound))")
        }
        if let classified {
            conditions.append("c.classified_at >= \(parameters.add(classified.lowerBound.catalogueMilliseconds)) "
                              + "AND c.classified_at < \(parameters.add(classified.upperBound.catalogueMilliseconds))")
        }
        if let imported {
            conditions.append("i.first_imported >= \(parameters.add(imported.lowerBound.catalogueMilliseconds)) "
                              + "AND i.first_imported < \(parameters.add(imported.upperBound.catalogueMilliseconds))")
        }
        if let taken {
            conditions.append("i.taken_at >= \(parameters.add(taken.lowerBound.catalogueMilliseconds)) "
                              + "AND i.taken_at < \(parameters.add(taken.upperBound.catalogueMilliseconds))")
        }
        if let model { conditions.append("c.model_id = \(parameters.add(model))") }
        if let colours { conditions.append("coalesce(i.person_colour, i.colour) IN (\(colours.map { parameters.add($0) }.joined(separator: ", ")))") }
        return conditions
    }
}
