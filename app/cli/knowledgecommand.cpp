#include "app/cli/knowledgecommand.h"

#include "agent/knowledge/knowledgeembedder.h"
#include "agent/knowledge/knowledgeindex.h"
#include "agent/knowledge/knowledgeindexer.h"
#include "agent/knowledge/knowledgelibrary.h"
#include "agent/knowledge/knowledgequery.h"
#include "agent/knowledge/knowledgesearchtool.h"
#include "agent/session/knowledgeattachment.h"
#include "app/cli/commandlinesyntax.h"
#include "app/cli/terminaltext.h"
#include "app/launch/provideroptions.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFutureWatcher>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QNetworkAccessManager>

using namespace Qt::StringLiterals;

namespace Loopscope::Cli {

KnowledgeCommand::KnowledgeCommand()
    : m_stdout(stdout)
    , m_stderr(stderr)
    , m_out(&m_stdout)
    , m_err(&m_stderr)
    , m_directory(KnowledgeLibrary::defaultDirectory())
{}

KnowledgeCommand::KnowledgeCommand(QTextStream *out, QTextStream *err, QString directory)
    : m_out(out)
    , m_err(err)
    , m_directory(std::move(directory))
{}

void KnowledgeCommand::printError(const QString &message)
{
    *m_err << "loopscope knowledge: " << visibleControls(message) << Qt::endl;
}

int KnowledgeCommand::exec(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(tr(
        "add NAME PATH...: define a knowledge base over folders and files, and index it.\n"
        "index NAME: bring its index up to date (unchanged files are skipped; progress on stderr).\n"
        "list: the bases with their files, passages, size and last indexing.\n"
        "remove NAME: forget a base and delete its index (the documents stay).\n"
        "search NAME QUESTION: the passages sharing the most of the question's words, by BM25; with an "
        "embedding model also the passages closest in meaning, the two rankings fused.\n\n"
        "add --embedding-model MODEL embeds the passages with the provider that --provider, --base-url and "
        "--api-key-env name (as for loopscope run; the key is read from the environment at each index and "
        "search, never recorded). Without it the base is searched by its words only.\n\n"
        "Exit codes:\n"
        "  0    done\n"
        "  1    indexing reported errors (a missing folder, a failed write), or the index failed\n"
        "  2    bad usage: unknown option or command, an unknown or invalid base name"));
    CommandLineSyntax syntax(parser, u"knowledge"_s);
    const QCommandLineOption topK(u"top-k"_s, tr("search: how many passages to print (default 5)."), u"n"_s,
                                  u"5"_s);
    const QCommandLineOption json(u"json"_s,
                                  tr("search: print a JSON array of hits, best first, each with path, "
                                     "startLine, endLine, score and text."));
    const QCommandLineOption embeddingModel(
        u"embedding-model"_s,
        tr("add: the model that embeds the passages (e.g. text-embedding-3-small, nomic-embed-text), "
           "recorded with the base; search is then hybrid."),
        u"model"_s);
    const Launch::ProviderOptions providerOptions(false);
    parser.addOption(topK);
    parser.addOption(json);
    parser.addOption(embeddingModel);
    providerOptions.addTo(parser);
    parser.addPositionalArgument(u"command"_s, tr("What to do."), u"add|index|list|remove|search"_s);
    parser.addPositionalArgument(u"arguments"_s, tr("The base's name, then its paths or the question."),
                                 u"[NAME [PATH...|QUESTION]]"_s);

    QString error;
    switch (syntax.parse(arguments, *m_out, &error)) {
    case CommandLineSyntax::Outcome::Failed: printError(error); return BadUsage;
    case CommandLineSyntax::Outcome::HelpShown: return Success;
    case CommandLineSyntax::Outcome::Parsed: break;
    }
    const QStringList positional = parser.positionalArguments();
    const QString command = positional.value(0);
    const QString name = positional.value(1);
    bool topKValid = false;
    const int topKValue = parser.value(topK).toInt(&topKValid);
    if (!topKValid || topKValue < 1) {
        printError(tr("--top-k takes a whole number of at least 1"));
        return BadUsage;
    }
    KnowledgeLibrary library(m_directory);
    if (command == u"list" && positional.size() == 1)
        return list();
    if ((providerOptions.isAnySet(parser) || parser.isSet(embeddingModel)) && command != u"add") {
        printError(tr("--embedding-model, --provider, --base-url and --api-key-env belong to add"));
        return BadUsage;
    }
    if (command == u"add" && positional.size() >= 3) {
        KnowledgeBaseDefinition definition{name, positional.mid(2), {}};
        if (parser.isSet(embeddingModel)) {
            Launch::ProviderOptions::Choice choice = providerOptions.choice(parser);
            choice.model = parser.value(embeddingModel);
            const std::optional<ProviderProfile> profile
                = Launch::ProviderOptions::profile(choice, tr("with --embedding-model"), &error);
            if (!profile) {
                printError(error);
                return BadUsage;
            }
            if (profile->kind == ProviderKind::Anthropic) {
                printError(tr("Anthropic offers no embeddings: use --provider openai (also LM Studio, "
                              "llama.cpp, vLLM, Ollama's /v1), ollama or gemini"));
                return BadUsage;
            }
            // The base URL only when given: a default follows the provider's.
            definition.embedding = {profile->kind, choice.baseUrl ? profile->baseUrl : QUrl(), profile->model,
                                    profile->needsKey() || choice.apiKeyEnv ? profile->apiKeyEnv : QString()};
        } else if (providerOptions.isAnySet(parser)) {
            printError(
                tr("--provider, --base-url and --api-key-env describe where embeddings come from: name "
                   "the model with --embedding-model"));
            return BadUsage;
        }
        const QString added = library.add(definition);
        if (!added.isEmpty()) {
            printError(added);
            return BadUsage;
        }
        return index(name);
    }
    if ((command == u"index" || command == u"remove") && positional.size() == 2) {
        if (!library.base(name)) {
            printError(tr("there is no knowledge base named '%1' (see loopscope knowledge list)").arg(name));
            return BadUsage;
        }
        if (command == u"index")
            return index(name);
        if (const QString removed = library.remove(name); !removed.isEmpty()) {
            printError(removed);
            return Failed;
        }
        *m_out << tr("Removed the knowledge base '%1'.").arg(name) << Qt::endl;
        return Success;
    }
    if (command == u"search" && positional.size() == 3)
        return search(name, positional.at(2), topKValue, parser.isSet(json));
    printError(
        command.isEmpty()
                || !QStringList{u"add"_s, u"index"_s, u"list"_s, u"remove"_s, u"search"_s}.contains(command)
            ? tr("the commands are add, index, list, remove and search (see --help)")
            : tr("wrong arguments for %1 (see --help)").arg(command));
    return BadUsage;
}

int KnowledgeCommand::index(const QString &name)
{
    KnowledgeLibrary library(m_directory);
    const auto base = library.base(name);
    int lastPercent = -1;
    const KnowledgeIndexReport report = KnowledgeIndexer().run(
        *base, library.databasePath(name), [this, &lastPercent](int done, int total, const QString &) {
            const int percent = total > 0 ? done * 100 / total : 100;
            if (percent / 10 == lastPercent / 10 && done != total)
                return;
            lastPercent = percent;
            *m_err << tr("indexing: %1 of %2 files").arg(done).arg(total) << Qt::endl;
        });
    for (const QString &notice : report.notices)
        printError(tr("note: %1").arg(notice));
    for (const KnowledgeSkippedFile &file : report.skipped)
        *m_out << tr("skipped %1: %2").arg(visibleControls(file.path), file.reason) << Qt::endl;
    *m_out << tr("%1: files indexed %2 (passages %3), unchanged %4, removed %5, skipped %6.")
                  .arg(name)
                  .arg(report.filesIndexed)
                  .arg(report.chunksWritten)
                  .arg(report.filesUnchanged)
                  .arg(report.filesRemoved)
                  .arg(report.skipped.size())
           << Qt::endl;
    for (const QString &failure : report.errors)
        printError(failure);
    const int exitCode = report.errors.isEmpty() ? Success : Failed;
    // What was written is embedded even after an error elsewhere (a folder gone): the two are apart.
    if (base->embedding.isSet() && !report.cancelled) {
        if (const int embedded = embed(*base); embedded != Success)
            return embedded;
    }
    return exitCode;
}

std::optional<EmbeddingsEndpoint> KnowledgeCommand::embeddingsEndpoint(const KnowledgeBaseDefinition &base,
                                                                       QString *error)
{
    return KnowledgeAttachment::embeddingsEndpoint(base, error);
}

std::optional<AttachedKnowledgeBase> KnowledgeCommand::attach(const QString &name, QString *error)
{
    const KnowledgeLibrary library;
    if (!library.base(name)) {
        *error = tr("there is no knowledge base named \"%1\" (see loopscope knowledge list)").arg(name);
        return std::nullopt;
    }
    return KnowledgeAttachment::attach(library, name, error);
}

int KnowledgeCommand::embed(const KnowledgeBaseDefinition &base)
{
    QString error;
    const std::optional<EmbeddingsEndpoint> endpoint = embeddingsEndpoint(base, &error);
    if (!endpoint) {
        printError(tr("%1; the passages stay searchable by their words.").arg(error));
        return Failed;
    }
    QNetworkAccessManager network;
    KnowledgeEmbedder embedder(&network, *endpoint, KnowledgeLibrary(m_directory).databasePath(base.name));
    int lastPercent = -1;
    QObject::connect(&embedder, &KnowledgeEmbedder::notice, &embedder,
                     [this](const QString &message) { printError(tr("note: %1").arg(message)); });
    QObject::connect(&embedder, &KnowledgeEmbedder::progress, &embedder,
                     [this, &lastPercent](int done, int total) {
                         const int percent = total > 0 ? done * 100 / total : 100;
                         if (percent / 10 == lastPercent / 10 && done != total)
                             return;
                         lastPercent = percent;
                         *m_err << tr("embedding: %1 of %2 passages").arg(done).arg(total) << Qt::endl;
                     });
    QObject::connect(&embedder, &KnowledgeEmbedder::finished, &embedder,
                     [this, &base, &embedder](int embedded) {
                         *m_out << tr("%1: passages embedded %2 (%3 requests to \"%4\").")
                                       .arg(base.name)
                                       .arg(embedded)
                                       .arg(embedder.client().requestCount())
                                       .arg(base.embedding.model)
                                << Qt::endl;
                         QCoreApplication::exit(Success);
                     });
    QObject::connect(&embedder, &KnowledgeEmbedder::failed, &embedder, [this](const QString &message) {
        printError(message);
        QCoreApplication::exit(Failed);
    });
    embedder.start(); // its outcome is a signal, on the loop below: exit() is never called before exec()
    return QCoreApplication::exec();
}

int KnowledgeCommand::list()
{
    KnowledgeLibrary library(m_directory);
    const QList<KnowledgeBaseDefinition> bases = library.bases();
    if (bases.isEmpty()) {
        *m_out << tr("No knowledge base yet (add one with loopscope knowledge add NAME PATH...).")
               << Qt::endl;
        return Success;
    }
    const QLocale locale = QLocale::system();
    int exitCode = Success;
    for (const KnowledgeBaseDefinition &base : bases) {
        QString error;
        const auto index = KnowledgeIndex::openForReading(library.databasePath(base.name), &error);
        if (!index) {
            printError(error);
            exitCode = Failed;
            continue;
        }
        const KnowledgeIndexStatus status = index->status();
        *m_out << tr("%1: files %2, passages %3, %4, last indexed %5%6")
                      .arg(base.name)
                      .arg(status.files)
                      .arg(status.chunks)
                      .arg(locale.formattedDataSize(status.bytes))
                      .arg(status.lastIndexed.isValid()
                               ? status.lastIndexed.toLocalTime().toString(Qt::ISODate)
                               : tr("never"))
                      .arg(status.skipped.isEmpty() ? QString()
                                                    : tr(", %1 skipped").arg(status.skipped.size()))
               << Qt::endl;
        if (base.embedding.isSet()) {
            *m_out << u"  "_s
                   << tr("embeddings: %1 (%2), passages embedded %3 of %4")
                          .arg(base.embedding.model, providerKindName(base.embedding.kind))
                          .arg(status.embeddedChunks)
                          .arg(status.chunks)
                   << Qt::endl;
        }
        for (const QString &path : base.paths)
            *m_out << u"  "_s << visibleControls(QDir::toNativeSeparators(path)) << Qt::endl;
    }
    return exitCode;
}

int KnowledgeCommand::search(const QString &name, const QString &question, int topK, bool json)
{
    KnowledgeLibrary library(m_directory);
    const auto base = library.base(name);
    if (!base) {
        printError(tr("there is no knowledge base named '%1' (see loopscope knowledge list)").arg(name));
        return BadUsage;
    }
    QString error;
    const auto index = KnowledgeIndex::openForReading(library.databasePath(name), &error);
    if (!index) {
        printError(error);
        return Failed;
    }
    for (const QString &notice : index->notices())
        printError(tr("note: %1").arg(notice));
    Embedding questionVector;
    if (base->embedding.isSet() && !KnowledgeQuery::terms(question).isEmpty()) {
        const std::optional<EmbeddingsEndpoint> endpoint = embeddingsEndpoint(*base, &error);
        if (!endpoint) {
            printError(tr("note: %1; searching by the question's words only").arg(error));
        } else {
            QFutureWatcher<KnowledgeQueryVectors> watcher;
            QObject::connect(&watcher, &QFutureWatcherBase::finished, &watcher,
                             [] { QCoreApplication::exit(0); });
            watcher.setFuture(KnowledgeSearchTool::embedQuestion(
                {{name, library.databasePath(name), *endpoint}}, question));
            QCoreApplication::exec();
            const KnowledgeQueryVectors vectors = watcher.future().result();
            if (!vectors.error.isEmpty())
                printError(tr("note: %1").arg(vectors.error));
            questionVector = vectors.byBase.value(name);
        }
    }
    const QList<KnowledgeHit> hits = index->search(question, topK, questionVector);
    if (!index->lastError().isEmpty()) {
        printError(index->lastError());
        return Failed;
    }
    if (json) {
        QJsonArray array;
        for (const KnowledgeHit &hit : hits)
            array.append(hit.toJson());
        *m_out << QJsonDocument(array).toJson(QJsonDocument::Indented);
        m_out->flush();
        return Success;
    }
    if (hits.isEmpty())
        *m_out << tr("No passage shares a word with the question.") << Qt::endl;
    for (const KnowledgeHit &hit : hits) {
        *m_out << visibleControls(hit.path) << u':';
        if (hit.page > 0)
            *m_out << tr("page %1:").arg(hit.page);
        *m_out << hit.startLine << u'-' << hit.endLine << u"  "_s
               << (hit.fused ? tr("score %1 (BM25 %2, cosine %3)")
                                   .arg(hit.score(), 0, 'g', 4)
                                   .arg(hit.bm25, 0, 'g', 4)
                                   .arg(hit.cosine.value_or(0), 0, 'g', 4)
                             : tr("score %1").arg(hit.bm25, 0, 'g', 4))
               << Qt::endl;
        for (const QString &line : hit.text.split(u'\n'))
            *m_out << u"    "_s << visibleControls(line) << Qt::endl;
    }
    return Success;
}

} // namespace Loopscope::Cli
