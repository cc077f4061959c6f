import BoardArchive
import Foundation

/// Where a PostgreSQL store's password comes from, resolved the way `psql` users expect.
///
/// In order: the file `store.password-file` names; else the variable `store.password-env` names (default `PGPASSWORD`);
/// else the first matching line of `PGPASSFILE` or `~/.pgpass`; else none (the server may not ask for one). The password
/// is never taken from the URL, a flag's value or the configuration file.
enum StorePassword {
    static func resolve(for url: PostgresStoreURL, settings: Settings, environment: [String: String]) throws -> PostgresPassword? {
        if let file = settings.string("store.password-file") {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw SettingsError(
                    key: "store.password-file", origin: settings.origin(of: "store.password-file") ?? .defaultValue, reason: .unreadableFile)
            }
            let text = String(decoding: data, as: UTF8.self)
            guard let password = PostgresPassword(String(text.trimmingCharacters(in: .newlines))) else {
                throw SettingsError(
                    key: "store.password-file", origin: settings.origin(of: "store.password-file") ?? .defaultValue, reason: .emptyFile)
            }
            return password
        }
        if let variable = settings.string("store.password-env"), let value = environment[variable], let password = PostgresPassword(value) {
            return password
        }
        let passFile =
            environment["PGPASSFILE"]
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".pgpass").path
        guard let data = FileManager.default.contents(atPath: passFile) else { return nil }
        // As libpq: a password file others may read is ignored, with a warning.
        let target = URL(fileURLWithPath: passFile).resolvingSymlinksInPath().path
        if let mode = (try? FileManager.default.attributesOfItem(atPath: target))?[.posixPermissions] as? NSNumber, mode.intValue & 0o077 != 0 {
            FileHandle.standardError.write(
                Data("warning: password file \(passFile) can be read by group or others, so it was ignored; chmod 600 it.\n".utf8))
            return nil
        }
        return PostgresPassword.fromPassFile(String(decoding: data, as: UTF8.self), for: url)
    }
}
