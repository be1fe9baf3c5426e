/// A query parameter that lists names, separated by commas (`colour=navy,blue`), read as a
/// set: every entry one of a fixed vocabulary (as `name` reads it, so `Gray` is `grey`), none
/// empty, none twice, so a list is never longer than what it can name. Taken as they came,
/// `colour=red,red,…` was a list of any length, and each length made a statement of its own
/// (a placeholder an entry) that every connection compiled and kept: 400 such requests took
/// the server from 41 MB to 149 MB. `colour=,` read as a list of none and chose no image.
enum ListParameter {
    /// The names `text` lists, in its order; a bad request, naming `parameter`, for an empty
    /// entry, a name read twice, a name outside the vocabulary, or more entries than its
    /// `vocabulary` names (refused before any is read).
    static func names(_ text: String, parameter: String, vocabulary: Int,
                      reading name: (String) throws -> String) throws -> [String] {
        let entries = text.split(separator: ",", omittingEmptySubsequences: false)
        guard entries.count <= vocabulary else {
            throw SiteError.badRequest("\(parameter) lists at most \(vocabulary) names, each once")
        }
        var names: [String] = []
        for entry in entries {
            guard !entry.isEmpty else {
                throw SiteError.badRequest("\(parameter) lists names separated by single commas, with none empty")
            }
            let read: String
            do { read = try name(String(entry)) } catch { throw SiteError.badRequest("\(parameter): \(error)") }
            guard !names.contains(read) else { throw SiteError.badRequest("\(parameter) names \(read) twice") }
            names.append(read)
        }
        return names
    }
}
