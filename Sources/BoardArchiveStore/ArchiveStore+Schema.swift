import BoardArchiveModel
import Foundation
import GRDB

extension ArchiveStore {
    /// The schema, as ordered migrations; the store's schema version is the number applied.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-archive") { db in
            try db.execute(
                sql: """
                    CREATE TABLE board (
                        boardId INTEGER PRIMARY KEY,
                        displayName TEXT NOT NULL,
                        boardType TEXT,
                        isFavorite INTEGER,
                        hasNewPost INTEGER,
                        orderNo INTEGER,
                        capabilityWritable INTEGER,
                        capabilityManageable INTEGER,
                        raw TEXT NOT NULL,
                        firstSeen REAL NOT NULL,
                        lastSeen REAL NOT NULL,
                        lastSeenRun INTEGER,
                        goneSince REAL
                    );
                    CREATE TABLE post (
                        postId INTEGER PRIMARY KEY,
                        boardId INTEGER NOT NULL,
                        title TEXT NOT NULL,
                        boardDisplayName TEXT,
                        writerName TEXT NOT NULL,
                        writerEmail TEXT,
                        writerProfileImage TEXT,
                        contents TEXT NOT NULL,
                        createdAt INTEGER NOT NULL,
                        viewCount INTEGER NOT NULL,
                        postType TEXT NOT NULL,
                        rawPostType TEXT,
                        isNewPost INTEGER,
                        hasInlineImage INTEGER,
                        commentsCount INTEGER NOT NULL,
                        attachmentsCount INTEGER NOT NULL,
                        isAnonymous INTEGER NOT NULL,
                        isOwner INTEGER,
                        hasReply INTEGER,
                        parentPostId INTEGER,
                        hasAttachment INTEGER,
                        raw TEXT NOT NULL,
                        contentHash TEXT NOT NULL,
                        firstSeen REAL NOT NULL,
                        lastSeen REAL NOT NULL,
                        lastSeenRun INTEGER,
                        goneSince REAL
                    );
                    CREATE INDEX post_board_order ON post (boardId, (postType = 'notice') DESC, createdAt DESC, postId DESC);
                    CREATE INDEX post_board_run ON post (boardId, lastSeenRun);
                    CREATE TABLE crawl_run (
                        runId INTEGER PRIMARY KEY AUTOINCREMENT,
                        api TEXT NOT NULL,
                        startedAt REAL NOT NULL,
                        finishedAt REAL,
                        status TEXT NOT NULL,
                        pageSize INTEGER NOT NULL,
                        summary TEXT
                    );
                    CREATE TABLE board_crawl (
                        runId INTEGER NOT NULL REFERENCES crawl_run(runId),
                        boardId INTEGER NOT NULL,
                        status TEXT NOT NULL,
                        passes INTEGER NOT NULL DEFAULT 0,
                        uniquePosts INTEGER,
                        total INTEGER,
                        PRIMARY KEY (runId, boardId)
                    );
                    CREATE TABLE page_checkpoint (
                        runId INTEGER NOT NULL REFERENCES crawl_run(runId),
                        boardId INTEGER NOT NULL,
                        pass INTEGER NOT NULL,
                        pageOffset INTEGER NOT NULL,
                        pageCount INTEGER NOT NULL,
                        total INTEGER NOT NULL,
                        pageHash TEXT NOT NULL,
                        lastPostId INTEGER,
                        postIds TEXT NOT NULL DEFAULT '',
                        fetchedAt REAL NOT NULL,
                        PRIMARY KEY (runId, boardId, pass, pageOffset)
                    );
                    """)
        }
        migrator.registerMigration("v2-build-indexes") { db in
            // The build streams search blocks oldest first per group and looks replies up by parent.
            try db.execute(
                sql: """
                    CREATE INDEX post_chronological ON post ((postType = 'notice') DESC, createdAt, postId);
                    CREATE INDEX post_parent ON post (parentPostId);
                    """)
        }
        migrator.registerMigration("v3-nightly") { db in
            // How each board was read in a run (incremental, fallback, full), and when each part of a board was last
            // re-read in full (the verification rota). Parts count posts from the oldest end, which new posts never move.
            try db.execute(
                sql: """
                    ALTER TABLE board_crawl ADD COLUMN mode TEXT;
                    CREATE TABLE verified_part (
                        boardId INTEGER NOT NULL,
                        fromOldest INTEGER NOT NULL,
                        toOldest INTEGER NOT NULL,
                        total INTEGER NOT NULL,
                        verifiedAt REAL NOT NULL,
                        runId INTEGER NOT NULL,
                        PRIMARY KEY (boardId, fromOldest)
                    );
                    """)
        }
        migrator.registerMigration("v4-redaction") { db in
            // Takedowns: every redaction ever made (undone ones keep their row), and on each post the redaction that
            // applies to it now, so that every read filters or masks it without a join (see ArchiveStore+Redaction).
            try db.execute(
                sql: """
                    CREATE TABLE redaction (
                        redactionId INTEGER PRIMARY KEY AUTOINCREMENT,
                        kind TEXT NOT NULL,
                        target TEXT NOT NULL,
                        mode TEXT NOT NULL,
                        purge INTEGER NOT NULL,
                        reason TEXT NOT NULL,
                        createdAt REAL NOT NULL,
                        undoneAt REAL
                    );
                    ALTER TABLE post ADD COLUMN redactionId INTEGER;
                    ALTER TABLE post ADD COLUMN redactionMode TEXT;
                    ALTER TABLE post ADD COLUMN redactedAt REAL;
                    ALTER TABLE post ADD COLUMN purged INTEGER NOT NULL DEFAULT 0;
                    CREATE INDEX post_redaction ON post (redactionId) WHERE redactionId IS NOT NULL;
                    """)
        }
        migrator.registerMigration("v5-listing-keys") { db in
            // Covering indexes of what the build's digests read of a post (ListingKey): its place, content hash, parent
            // and redaction. `contentHash` and the redaction columns come after `contents` and `raw` in a row, so reading
            // them from the table walked every long post's overflow pages: a rebuild read the whole store to find the
            // few pages to render. They replace the board-order, chronological and parent indexes, whose prefixes they keep.
            try db.execute(
                sql: """
                    DROP INDEX post_board_order;
                    DROP INDEX post_chronological;
                    DROP INDEX post_parent;
                    \(keyIndexes(holding: ListingKey.v5IndexedColumns))
                    """)
        }
        migrator.registerMigration("v6-versions") { db in
            for statement in ArchiveStore.versionsMigration(realType: "REAL", integerType: "INTEGER") { try db.execute(sql: statement) }
            // The key indexes also hold what a deletion mark and a post's versions change (goneSince, versionCount).
            try db.execute(
                sql: """
                    DROP INDEX post_board_keys;
                    DROP INDEX post_chronological_keys;
                    DROP INDEX post_parent_keys;
                    DROP INDEX post_id_keys;
                    \(keyIndexes(holding: ListingKey.indexedColumns))
                    """)
        }
        migrator.registerMigration("v7-media") { db in
            for statement in ArchiveStore.mediaMigration(realType: "REAL", integerType: "INTEGER", blobType: "BLOB", keyType: "TEXT") {
                try db.execute(sql: statement)
            }
        }
        return migrator
    }

    /// The four covering indexes of ``ListingKey`` (board order, chronological, by parent, by id), each holding `columns`
    /// besides its ordering columns.
    static func keyIndexes(holding columns: String) -> String {
        """
        CREATE INDEX post_board_keys ON post
            (boardId, (postType = 'notice') DESC, createdAt DESC, postId DESC, parentPostId, \(columns));
        CREATE INDEX post_chronological_keys ON post
            ((postType = 'notice') DESC, createdAt, postId, boardId, parentPostId, \(columns));
        CREATE INDEX post_parent_keys ON post
            (parentPostId, boardId, (postType = 'notice') DESC, createdAt DESC, postId DESC, \(columns));
        CREATE INDEX post_id_keys ON post (postId, boardId, createdAt, parentPostId, \(columns));
        """
    }

    /// The statements of migration `v6-versions` both stores share: when a post's current text was first seen
    /// (`editedAt`, nil while it has no earlier version), how many earlier versions it has, and the earlier versions
    /// themselves, append-only: every column of the post as it was, with when that version was first and last seen. What
    /// the build's digests read of a version (its hash and dates) comes before its text, so reading it never walks a long
    /// row's overflow pages.
    package static func versionsMigration(realType: String, integerType: String) -> [String] {
        [
            "ALTER TABLE post ADD COLUMN editedAt \(realType)",
            "ALTER TABLE post ADD COLUMN versionCount \(integerType) NOT NULL DEFAULT 0",
            """
            CREATE TABLE post_version (
                postId \(integerType) NOT NULL, version \(integerType) NOT NULL, contentHash TEXT NOT NULL,
                firstSeen \(realType) NOT NULL, lastSeen \(realType) NOT NULL, purged INTEGER NOT NULL DEFAULT 0,
                boardId \(integerType) NOT NULL, title TEXT NOT NULL, boardDisplayName TEXT, writerName TEXT NOT NULL, writerEmail TEXT,
                writerProfileImage TEXT, contents TEXT NOT NULL, createdAt \(integerType) NOT NULL, viewCount \(integerType) NOT NULL,
                postType TEXT NOT NULL, rawPostType TEXT, isNewPost INTEGER, hasInlineImage INTEGER, commentsCount \(integerType) NOT NULL,
                attachmentsCount \(integerType) NOT NULL, isAnonymous INTEGER NOT NULL, isOwner INTEGER, hasReply INTEGER,
                parentPostId \(integerType), hasAttachment INTEGER, raw TEXT NOT NULL, PRIMARY KEY (postId, version))
            """,
        ]
    }

    /// The statements of migration `v7-media` both stores share (issue 28): the pictures post bodies show.
    /// - `media`: each distinct image kept, once, by the SHA-256 of its bytes, with its format and intrinsic size.
    /// - `media_source`: each address a body shows (as written), what became of it (`pending`, `kept`, `failed`,
    ///   `refused`), why, and when one not kept is tried again.
    /// - `post_media`: which addresses each post's current text shows, in order.
    /// Text keys sort by their bytes on both stores (`keyType`: PostgreSQL's `COLLATE "C"`), as `store copy` compares them.
    package static func mediaMigration(realType: String, integerType: String, blobType: String, keyType: String) -> [String] {
        [
            """
            CREATE TABLE media (
                hash \(keyType) PRIMARY KEY, format TEXT NOT NULL, width \(integerType) NOT NULL, height \(integerType) NOT NULL,
                size \(integerType) NOT NULL, firstSeen \(realType) NOT NULL, bytes \(blobType) NOT NULL)
            """,
            """
            CREATE TABLE media_source (
                address \(keyType) PRIMARY KEY, status TEXT NOT NULL, hash \(keyType), reason TEXT, attempts \(integerType) NOT NULL DEFAULT 0,
                firstSeen \(realType) NOT NULL, lastTried \(realType), nextAttempt \(realType))
            """,
            """
            CREATE TABLE post_media (
                postId \(integerType) NOT NULL, position \(integerType) NOT NULL, address \(keyType) NOT NULL, PRIMARY KEY (postId, position))
            """,
            "CREATE INDEX post_media_address ON post_media (address)",
            // Facts about the archive as a whole (`media-scanned`: every stored post's text was read for pictures).
            "CREATE TABLE archive_flag (name \(keyType) PRIMARY KEY, value TEXT NOT NULL)",
            "CREATE INDEX media_source_hash ON media_source (hash)",
        ]
    }

    static func post(from row: Row) -> Post {
        var post = Post(
            postId: row["postId"], title: row["title"], boardId: row["boardId"], boardDisplayName: row["boardDisplayName"],
            writer: Writer(displayName: row["writerName"], emailAddress: row["writerEmail"], profileImage: row["writerProfileImage"]),
            contents: row["contents"], createdDateTime: Date(timeIntervalSince1970: TimeInterval(row["createdAt"] as Int64)),
            viewCount: row["viewCount"], postType: PostType(rawValue: row["postType"]) ?? .normal, isNewPost: row["isNewPost"],
            hasInlineImage: row["hasInlineImage"], commentsCount: row["commentsCount"], attachmentsCount: row["attachmentsCount"],
            isAnonymous: row["isAnonymous"], isOwner: row["isOwner"], hasReply: row["hasReply"], parentPostId: row["parentPostId"],
            hasAttachment: row["hasAttachment"])
        post.unknownPostType = row["rawPostType"]
        if (row["redactionMode"] as String?) == RedactionMode.anonymize.rawValue { post.withholdWriter() }
        return post
    }
}
