#include "agent/knowledge/knowledgeindexer.h"

#include "agent/tools/builtin/htmltext.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QLockFile>
#include <QSet>

#include <poppler-qt6.h>

#include <memory>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

// Every file under the base's paths, hidden ones left out, sorted; missing paths in *missing.
QStringList collectFiles(const QStringList &paths, QStringList *missing)
{
    QSet<QString> files;
    for (const QString &path : paths) {
        const QFileInfo info(path);
        if (info.isFile()) {
            files.insert(info.absoluteFilePath());
        } else if (info.isDir()) {
            QDirIterator it(path, QDir::Files | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
            while (it.hasNext())
                files.insert(it.next());
        } else {
            missing->append(path);
        }
    }
    QStringList sorted(files.begin(), files.end());
    sorted.sort();
    return sorted;
}

bool under(const QString &file, const QString &root)
{
    return file == root || file.startsWith(root.endsWith(u'/') ? root : root + u'/');
}

bool isMarkdown(const QString &suffix)
{
    return suffix == u"md"_s || suffix == u"markdown"_s || suffix == u"mdx"_s;
}

bool isHtml(const QString &suffix)
{
    return suffix == u"html"_s || suffix == u"htm"_s || suffix == u"xhtml"_s;
}

bool isPdf(const QString &suffix)
{
    return suffix == u"pdf"_s;
}

} // namespace

std::optional<QList<KnowledgeChunk>> KnowledgeIndexer::pdfChunks(const QByteArray &data, QString *why) const
{
    const std::unique_ptr<Poppler::Document> document = Poppler::Document::loadFromData(data);
    if (!document) {
        *why = tr("not a PDF that can be read (corrupt?)");
        return std::nullopt;
    }
    if (document->isLocked()) {
        *why = tr("the PDF is password-protected");
        return std::nullopt;
    }
    QList<KnowledgeChunk> chunks;
    bool anyText = false;
    for (int index = 0; index < document->numPages(); ++index) {
        const std::unique_ptr<Poppler::Page> page = document->page(index);
        const QString text = page ? page->text(QRectF()) : QString();
        anyText = anyText || !text.trimmed().isEmpty();
        // Each page is chunked alone, so a passage never spans two pages and its lines are the page's.
        for (KnowledgeChunk chunk : m_chunker.chunk(text, KnowledgeChunker::Kind::PlainText)) {
            chunk.page = index + 1;
            chunks.append(chunk);
        }
    }
    if (!anyText) {
        *why = tr("the PDF has no text layer (a scan?)");
        return std::nullopt;
    }
    return chunks;
}

std::optional<QString> KnowledgeIndexer::documentText(const QString &path, int page, QString *why)
{
    const QFileInfo info(path);
    const QString suffix = info.suffix().toLower();
    const bool pdf = isPdf(suffix);
    QFile file(path);
    if (!info.exists()) {
        *why = tr("the file is no longer there");
        return std::nullopt;
    }
    if (info.size() > (pdf ? MaxPdfBytes : MaxFileBytes)) {
        *why = tr("the file is now larger than %1")
                   .arg(QLocale().formattedDataSize(pdf ? MaxPdfBytes : MaxFileBytes));
        return std::nullopt;
    }
    if (!file.open(QIODevice::ReadOnly)) {
        *why = tr("the file cannot be read: %1").arg(file.errorString());
        return std::nullopt;
    }
    const QByteArray data = file.readAll();
    if (!pdf) {
        const QString text = QString::fromUtf8(data);
        return isHtml(suffix) ? HtmlText::toText(text, QUrl::fromLocalFile(path)) : text;
    }
    const std::unique_ptr<Poppler::Document> document = Poppler::Document::loadFromData(data);
    if (!document || document->isLocked()) {
        *why = tr("the PDF can no longer be read");
        return std::nullopt;
    }
    const std::unique_ptr<Poppler::Page> pdfPage
        = page >= 1 && page <= document->numPages() ? document->page(page - 1) : nullptr;
    if (!pdfPage) {
        *why = tr("the PDF has no page %1 now").arg(page);
        return std::nullopt;
    }
    return pdfPage->text(QRectF());
}

KnowledgeIndexer::KnowledgeIndexer(KnowledgeChunker chunker)
    : m_chunker(std::move(chunker))
{}

KnowledgeIndexReport KnowledgeIndexer::run(const KnowledgeBaseDefinition &base, const QString &databasePath,
                                           const Progress &progress, const std::atomic<bool> *cancel) const
{
    KnowledgeIndexReport report;
    QLockFile writer(databasePath + u".lock"_s);
    if (!writer.tryLock(0)) {
        report.errors.append(
            tr("The knowledge base '%1' is being indexed by another process.").arg(base.name));
        return report;
    }
    QString error;
    const auto index = KnowledgeIndex::open(databasePath, &error);
    if (!index) {
        report.errors.append(error);
        return report;
    }
    report.notices = index->notices();

    QStringList missing;
    const QStringList found = collectFiles(base.paths, &missing);
    for (const QString &path : std::as_const(missing))
        report.errors.append(
            tr("'%1' does not exist (any more); what was indexed from it is kept.").arg(path));
    QHash<QString, KnowledgeFileRecord> known = index->files();
    if (!index->lastError().isEmpty()) {
        report.errors.append(index->lastError());
        return report;
    }

    report.filesSeen = int(found.size());
    const QLocale locale = QLocale::system();
    for (qsizetype i = 0; i < found.size(); ++i) {
        if (cancel && cancel->load()) {
            report.cancelled = true;
            return report;
        }
        const QString &path = found[i];
        const QFileInfo info(path);
        const QString suffix = info.suffix().toLower();
        const bool pdf = isPdf(suffix);
        const KnowledgeFileRecord stat{info.size(), info.lastModified().toMSecsSinceEpoch(), {}};
        const auto previous = known.find(path);
        const bool wasIndexed = previous != known.end();
        auto skip = [&](const QString &reason) {
            report.skipped.append({path, reason});
            if (wasIndexed && index->removeFile(path))
                ++report.filesRemoved;
        };
        if (wasIndexed && previous->size == stat.size && previous->modified == stat.modified) {
            ++report.filesUnchanged;
        } else if (const qint64 most = pdf ? MaxPdfBytes : MaxFileBytes; stat.size > most) {
            skip(tr("larger than %1").arg(locale.formattedDataSize(most)));
        } else if (QFile file(path); !file.open(QIODevice::ReadOnly)) {
            skip(tr("cannot be read: %1").arg(file.errorString()));
        } else {
            const QByteArray data = file.readAll();
            KnowledgeFileRecord record = stat;
            record.hash = QCryptographicHash::hash(data, QCryptographicHash::Sha1);
            if (!pdf && data.left(BinaryProbeBytes).contains('\0')) {
                skip(tr("binary (it contains NUL bytes)"));
            } else if (wasIndexed && previous->hash == record.hash) {
                if (index->touchFile(path, record))
                    ++report.filesUnchanged;
                else
                    report.errors.append(index->lastError());
            } else {
                std::optional<QList<KnowledgeChunk>> chunks;
                QString why;
                if (pdf) {
                    chunks = pdfChunks(data, &why);
                } else {
                    QString text = QString::fromUtf8(data);
                    auto kind = KnowledgeChunker::Kind::PlainText;
                    if (isHtml(suffix)) {
                        text = HtmlText::toText(text, QUrl::fromLocalFile(path));
                        kind = KnowledgeChunker::Kind::Markdown;
                    } else if (isMarkdown(suffix)) {
                        kind = KnowledgeChunker::Kind::Markdown;
                    }
                    chunks = m_chunker.chunk(text, kind);
                }
                if (!chunks) {
                    skip(why);
                } else if (index->replaceFile(path, record, *chunks)) {
                    ++report.filesIndexed;
                    report.chunksWritten += int(chunks->size());
                } else {
                    report.errors.append(index->lastError());
                }
            }
        }
        known.remove(path);
        if (progress)
            progress(int(i + 1), int(found.size()), path);
    }

    // What is left was indexed and is no longer found: dropped, unless its folder is missing.
    for (auto it = known.cbegin(); it != known.cend(); ++it) {
        const bool keep = std::any_of(missing.cbegin(), missing.cend(),
                                      [&](const QString &root) { return under(it.key(), root); });
        if (keep)
            continue;
        if (index->removeFile(it.key()))
            ++report.filesRemoved;
        else
            report.errors.append(index->lastError());
    }
    if (!index->finishRun(report.skipped, QDateTime::currentDateTimeUtc()))
        report.errors.append(index->lastError());
    return report;
}

} // namespace Loopscope
