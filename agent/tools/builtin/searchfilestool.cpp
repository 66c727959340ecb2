#include "agent/tools/builtin/searchfilestool.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Loopscope {

SearchFilesTool::SearchFilesTool(Workspace workspace, int maxMatches)
    : m_workspace(std::move(workspace))
    , m_maxMatches(qMax(1, maxMatches))
{}

ToolSchema SearchFilesTool::schema() const
{
    const QJsonObject pattern{
        {u"type"_s, u"string"_s},
        {u"description"_s,
         u"Perl-compatible regular expression matched against each line, e.g. \"TODO|FIXME\" or "
         "\"class\\\\s+Agent\\\\b\". Case-sensitive; start with (?i) to ignore case."_s},
    };
    const QJsonObject path{
        {u"type"_s, u"string"_s},
        {u"description"_s,
         u"Folder (or single file) to search, relative to the workspace root, e.g. \"src\". "
         "Defaults to the whole workspace."_s},
    };
    return {Name,
            u"Searches the contents of the text files in the workspace, recursively, for lines "
            "matching a regular expression. Prints one match per line as \"path:line: text\" "
            "with the path relative to the workspace root, at most %1 matches. Hidden folders "
            "such as .git, binary files and files over 1 MiB are skipped."_s.arg(m_maxMatches),
            QJsonObject{
                {u"type"_s, u"object"_s},
                {u"properties"_s, QJsonObject{{u"pattern"_s, pattern}, {u"path"_s, path}}},
                {u"required"_s, QJsonArray{u"pattern"_s}},
                {u"additionalProperties"_s, false},
            }};
}

namespace {

// One search: the walk's state, so the recursive functions need few arguments.
struct Search
{
    QString root; // canonical workspace root
    QRegularExpression regex;
    int maxMatches = 0;
    const ToolContext *context = nullptr;

    QStringList matches;
    int filesSearched = 0;
    int filesSkipped = 0; // binary, too large or unreadable
    bool capped = false;

    bool shouldStop() const { return capped || context->isCancelled(); }

    void searchFile(const QFileInfo &file)
    {
        if (file.size() > SearchFilesTool::MaxFileBytes) {
            ++filesSkipped;
            return;
        }
        QFile device(file.absoluteFilePath());
        if (!device.open(QIODevice::ReadOnly)) {
            ++filesSkipped;
            return;
        }
        const QByteArray data = device.read(SearchFilesTool::MaxFileBytes + 1);
        if (data.size() > SearchFilesTool::MaxFileBytes
            || QByteArrayView(data)
                   .first(qMin<qsizetype>(data.size(), SearchFilesTool::BinaryProbeBytes))
                   .contains('\0')) {
            ++filesSkipped;
            return;
        }
        ++filesSearched;

        const QString text = QString::fromUtf8(data);
        QStringView lines(text);
        if (lines.endsWith(u'\n'))
            lines.chop(1); // a final newline ends the last line, it does not start another
        const QString displayPath = Workspace::relativePath(root, file.absoluteFilePath());
        int lineNumber = 0;
        for (QStringView line : QStringTokenizer(lines, u'\n')) {
            ++lineNumber;
            if (line.endsWith(u'\r'))
                line.chop(1);
            if (!regex.match(line).hasMatch())
                continue;
            if (matches.size() >= maxMatches) {
                capped = true;
                return;
            }
            QString shown
                = line.first(qMin<qsizetype>(line.size(), SearchFilesTool::MaxLineChars)).toString();
            if (shown.size() < line.size()) {
                if (shown.back().isHighSurrogate())
                    shown.chop(1);  // half a character would not survive JSON
                shown += u'\u2026'; // an ellipsis
            }
            matches.append(u"%1:%2: %3"_s.arg(displayPath, QString::number(lineNumber), shown));
        }
    }

    void searchFolder(const QString &folder)
    {
        // Per folder: often enough to show a long search moving, rarely enough not to flood.
        context->reportProgress(u"Searching %1"_s.arg(Workspace::relativePath(root, folder)));
        const QDir::Filters filters = QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System;
        QFileInfoList entries = QDir(folder).entryInfoList(filters, QDir::NoSort);
        // Sorted, so that output and the cut-off are the same on every run.
        std::sort(entries.begin(), entries.end(),
                  [](const QFileInfo &a, const QFileInfo &b) { return a.fileName() < b.fileName(); });
        for (const QFileInfo &entry : std::as_const(entries)) {
            if (shouldStop())
                return;
            if (entry.isSymLink()) {
                // Linked files inside the workspace are searched; linked folders are not
                // entered at all, which also rules out cycles.
                if (entry.isFile() && Workspace::isWithin(root, entry.canonicalFilePath()))
                    searchFile(entry);
                continue;
            }
            if (entry.isDir()) {
                if (!entry.fileName().startsWith(u'.'))
                    searchFolder(entry.absoluteFilePath());
            } else if (entry.isFile()) {
                searchFile(entry);
            }
        }
    }
};

} // namespace

ToolResult SearchFilesTool::invoke(const QJsonObject &arguments, ToolContext &context) const
{
    const QString pattern = arguments.value(u"pattern"_s).toString();
    if (pattern.isEmpty())
        return ToolResult::failure(u"The pattern is empty; give a regular expression such as \"TODO\"."_s);
    const QRegularExpression regex(pattern);
    if (!regex.isValid()) {
        return ToolResult::failure(u"Invalid regular expression '%1': %2 (at offset %3)."_s.arg(
            pattern, regex.errorString(), QString::number(regex.patternErrorOffset())));
    }

    const QString relativePath = arguments.value(u"path"_s).toString();
    const ResolvedPath resolved = m_workspace.resolve(relativePath);
    if (!resolved.isValid())
        return ToolResult::failure(resolved.error);

    Search search;
    search.root = m_workspace.canonicalRoot();
    search.regex = regex;
    search.maxMatches = m_maxMatches;
    search.context = &context;

    const QFileInfo start(resolved.path);
    if (!context.isCancelled()) {
        if (start.isDir())
            search.searchFolder(resolved.path);
        else if (start.isFile())
            search.searchFile(start);
    }
    if (context.isCancelled()) {
        return ToolResult::failure(u"The search was cancelled after %1 files and %2 matches."_s.arg(
            QString::number(search.filesSearched), QString::number(search.matches.size())));
    }

    const QString where = Workspace::relativePath(search.root, resolved.path);
    if (search.matches.isEmpty()) {
        const QString message = u"No matches for /%1/ in '%2' (%3 files searched, %4 skipped as binary, "
                                "too large or unreadable)."_s;
        return ToolResult::success(message.arg(pattern, where, QString::number(search.filesSearched),
                                               QString::number(search.filesSkipped)));
    }
    QString output = search.matches.join(u'\n');
    if (search.capped) {
        output += u"\n[truncated: showed the first %1 matches; narrow the pattern or the path to "
                  "see the rest]"_s.arg(search.matches.size());
    }
    return ToolResult::success(output);
}

} // namespace Loopscope
