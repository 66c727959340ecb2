#pragma once

#include "agent/knowledge/embeddingsclient.h"

#include <QCoreApplication>
#include <QStringList>
#include <QTextStream>

#include <optional>

namespace Loopscope {
struct KnowledgeIndexReport;
struct KnowledgeBaseDefinition;
struct AttachedKnowledgeBase;
} // namespace Loopscope

namespace Loopscope::Cli {

/*!
    `loopscope knowledge add|index|list|remove|search`: the knowledge bases
    without a window. add defines a base and indexes it at once; index brings
    it up to date (incrementally, progress on stderr); search prints the best
    passages for a question, as text or (--json) as an array of hits, best
    first, for a script to check what the agent would find. A base added with
    --embedding-model (and run's provider options) is embedded after its
    passages are written, and searched hybrid; the waits on the endpoint run
    on the application's event loop.
*/
class KnowledgeCommand final
{
    Q_DECLARE_TR_FUNCTIONS(KnowledgeCommand)

public:
    enum ExitCode {
        Success = 0,
        Failed = 1,   // indexing reported errors, or the index could not be read
        BadUsage = 2, // wrong options, an unknown or invalid base
    };

    // Prints on stdout and stderr; the bases are in the app's data folder.
    KnowledgeCommand();
    // Prints on \a out and \a err and keeps the bases in \a directory instead, e.g. for a test.
    KnowledgeCommand(QTextStream *out, QTextStream *err, QString directory);

    // arguments: as for QCommandLineParser, starting with the program name and "knowledge".
    int exec(const QStringList &arguments);

    // Where a base's embeddings come from, its key read from the environment variable it names;
    // nullopt for a lexical base, or with *error when the key is missing.
    static std::optional<EmbeddingsEndpoint> embeddingsEndpoint(const KnowledgeBaseDefinition &base,
                                                                QString *error);
    // The base named \a name in the app's data folder, as a session attaches it (--knowledge, an eval
    // case's "knowledge"): nullopt with *error when there is none or its embeddings' key is missing.
    static std::optional<AttachedKnowledgeBase> attach(const QString &name, QString *error);

private:
    int index(const QString &name);
    int embed(const KnowledgeBaseDefinition &base);
    int list();
    int search(const QString &name, const QString &question, int topK, bool json);
    void printError(const QString &message);

    QTextStream m_stdout;
    QTextStream m_stderr;
    QTextStream *m_out;
    QTextStream *m_err;
    QString m_directory;
};

} // namespace Loopscope::Cli
