#pragma once

#include "agent/knowledge/knowledgechunker.h"
#include "agent/knowledge/knowledgeindex.h"
#include "agent/knowledge/knowledgelibrary.h"

#include <QCoreApplication>
#include <QList>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <optional>

namespace Loopscope {

struct KnowledgeIndexReport
{
    int filesSeen = 0;
    int filesIndexed = 0; // new or changed, chunked again
    int filesUnchanged = 0;
    int filesRemoved = 0;
    int chunksWritten = 0;
    QList<KnowledgeSkippedFile> skipped; // binary, too large, unreadable: listed, not fatal
    QStringList notices;                 // e.g. the index was rebuilt
    QStringList errors;                  // a folder that is gone, a write that failed
    bool cancelled = false;
};

/*!
    Brings a knowledge base's index up to date with its folders and files, on
    the thread that calls it (a worker: it reads files and writes SQLite). It
    is incremental: a file whose size and modification time are those indexed
    is skipped unread; one whose content hash is also unchanged is only
    touched; a changed file is chunked again, a deleted one dropped. A PDF's
    text layer is read (Poppler) page by page, each passage keeping its page. Binary,
    oversized and unreadable files are skipped and listed; a listed folder
    that is gone keeps what was indexed from it and is reported. One writer:
    a second indexer of the same base stops with a message.
*/
class KnowledgeIndexer final
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::KnowledgeIndexer)

public:
    static constexpr qint64 MaxFileBytes = 8 * 1024 * 1024;
    static constexpr qint64 MaxPdfBytes = 64 * 1024 * 1024; // a PDF's text is a small part of its bytes
    static constexpr qint64 BinaryProbeBytes = 8 * 1024;

    // done of total files looked at; path is the one just done.
    using Progress = std::function<void(int done, int total, const QString &path)>;

    explicit KnowledgeIndexer(KnowledgeChunker chunker = KnowledgeChunker());

    KnowledgeIndexReport run(const KnowledgeBaseDefinition &base, const QString &databasePath,
                             const Progress &progress = {}, const std::atomic<bool> *cancel = nullptr) const;

    // The text a passage's lines count in, read as indexing reads it: the file's (an HTML file's as
    // text) or, for a PDF, page \a page's (1-based). nullopt with *why. It reads the file: never on
    // the GUI thread.
    static std::optional<QString> documentText(const QString &path, int page, QString *why);

private:
    // A PDF's text layer, each page chunked alone, its passages carrying the page; nullopt with *why.
    std::optional<QList<KnowledgeChunk>> pdfChunks(const QByteArray &data, QString *why) const;

    KnowledgeChunker m_chunker;
};

} // namespace Loopscope
