#include "agent/eval/evalsuite.h"

#include "agent/conversation/attachmentloader.h"
#include "agent/loop/turnresult.h"
#include "agent/tools/builtin/builtintools.h"
#include "agent/transcript/transcript.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

const QStringList caseFields
    = {u"name"_s,        u"prompt"_s,         u"system"_s,         u"provider"_s,
       u"base_url"_s,    u"model"_s,          u"api_key_env"_s,    u"session"_s,
       u"turn"_s,        u"live_tools"_s,     u"tools"_s,          u"workspace"_s,
       u"approve"_s,     u"expect"_s,         u"max_iterations"_s, u"timeout_seconds"_s,
       u"attachments"_s, u"context_window"_s, u"compact"_s,        u"knowledge"_s,
       u"retrieve"_s,    u"agents"_s,         u"agent"_s};
const QStringList expectFields = {
    u"answer_contains"_s,  u"answer_matches"_s, u"tool_called"_s, u"tool_not_called"_s, u"max_iterations"_s,
    u"no_error_results"_s, u"max_cost_usd"_s,   u"outcome"_s,     u"reproduced"_s,      u"retrieved"_s};
// What a replay takes from its recording, so a case may not set it.
const QStringList liveOnlyFields = {u"prompt"_s,         u"system"_s,      u"provider"_s,       u"base_url"_s,
                                    u"model"_s,          u"api_key_env"_s, u"tools"_s,          u"approve"_s,
                                    u"max_iterations"_s, u"attachments"_s, u"context_window"_s, u"compact"_s,
                                    u"knowledge"_s,      u"retrieve"_s,    u"agents"_s,         u"agent"_s};

QStringList outcomeNames()
{
    QStringList names;
    for (int i = 0; i <= int(TurnOutcome::ForcedFinal); ++i)
        names.append(turnOutcomeName(TurnOutcome(i)));
    return names;
}

// Reads the fields of one JSON object; the first problem is kept and every later read is skipped.
class FieldReader final
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::EvalSuite)

public:
    FieldReader(const QJsonObject &object, QString *error)
        : m_object(object)
        , m_error(error)
    {}

    bool failed() const { return !m_error->isEmpty(); }
    bool fail(const QString &message)
    {
        if (!failed())
            *m_error = message;
        return false;
    }

    bool knownFields(const QStringList &known, const QString &where)
    {
        for (auto it = m_object.constBegin(); it != m_object.constEnd(); ++it) {
            if (!known.contains(it.key()))
                return fail(
                    tr("unknown field \"%1\"%2 (known: %3)").arg(it.key(), where, known.join(u", "_s)));
        }
        return true;
    }

    std::optional<QString> string(const QString &key, bool nonEmpty = true)
    {
        if (failed() || !m_object.contains(key))
            return std::nullopt;
        const QJsonValue value = m_object.value(key);
        if (!value.isString() || (nonEmpty && value.toString().trimmed().isEmpty())) {
            fail(tr("\"%1\" must be a non-empty string").arg(key));
            return std::nullopt;
        }
        return value.toString();
    }

    std::optional<int> integer(const QString &key, int min, int max)
    {
        if (failed() || !m_object.contains(key))
            return std::nullopt;
        const QJsonValue value = m_object.value(key);
        const double number = value.toDouble(-1);
        if (!value.isDouble() || number != double(qint64(number)) || number < min || number > max) {
            fail(tr("\"%1\" must be a whole number from %2 to %3").arg(key).arg(min).arg(max));
            return std::nullopt;
        }
        return int(number);
    }

    std::optional<double> number(const QString &key)
    {
        if (failed() || !m_object.contains(key))
            return std::nullopt;
        const QJsonValue value = m_object.value(key);
        if (!value.isDouble() || value.toDouble() < 0) {
            fail(tr("\"%1\" must be a number of at least 0").arg(key));
            return std::nullopt;
        }
        return value.toDouble();
    }

    std::optional<bool> boolean(const QString &key)
    {
        if (failed() || !m_object.contains(key))
            return std::nullopt;
        const QJsonValue value = m_object.value(key);
        if (!value.isBool()) {
            fail(tr("\"%1\" must be true or false").arg(key));
            return std::nullopt;
        }
        return value.toBool();
    }

    // A string or a list of strings.
    QStringList strings(const QString &key)
    {
        if (failed() || !m_object.contains(key))
            return {};
        const QJsonValue value = m_object.value(key);
        if (value.isString() && !value.toString().isEmpty())
            return {value.toString()};
        QStringList list;
        const QJsonArray array = value.toArray();
        for (const QJsonValue &item : array) {
            if (!item.isString() || item.toString().isEmpty())
                break;
            list.append(item.toString());
        }
        if (!value.isArray() || array.isEmpty() || list.size() != array.size())
            fail(tr("\"%1\" must be a non-empty string or a list of them").arg(key));
        return list;
    }

    // A regular expression, checked.
    std::optional<QString> pattern(const QString &key, const QString &value)
    {
        const QRegularExpression expression(value);
        if (!expression.isValid()) {
            fail(tr("\"%1\" is not a valid regular expression: %2 at offset %3")
                     .arg(key, expression.errorString())
                     .arg(expression.patternErrorOffset()));
            return std::nullopt;
        }
        return value;
    }

    // Nested {"matches": "…"} patterns of an arguments object, checked.
    bool argumentPatterns(const QJsonObject &arguments)
    {
        for (auto it = arguments.constBegin(); it != arguments.constEnd(); ++it) {
            if (!it.value().isObject())
                continue;
            const QJsonObject nested = it.value().toObject();
            if (nested.size() == 1 && nested.contains(u"matches"_s)) {
                if (!nested.value(u"matches"_s).isString())
                    return fail(tr("\"matches\" of the argument \"%1\" must be a string").arg(it.key()));
                if (!pattern(it.key(), nested.value(u"matches"_s).toString()))
                    return false;
            } else if (!argumentPatterns(nested)) {
                return false;
            }
        }
        return true;
    }

    QList<ToolCallExpectation> toolCalls(const QString &key)
    {
        if (failed() || !m_object.contains(key))
            return {};
        const QJsonValue value = m_object.value(key);
        if (!value.isArray() || value.toArray().isEmpty()) {
            fail(tr("\"%1\" must be a list of tool names or {\"name\", \"arguments\"} objects").arg(key));
            return {};
        }
        QList<ToolCallExpectation> calls;
        for (const QJsonValue &item : value.toArray()) {
            ToolCallExpectation call;
            if (item.isString()) {
                call.name = item.toString();
            } else {
                const QJsonObject object = item.toObject();
                FieldReader fields(object, m_error);
                fields.knownFields({u"name"_s, u"arguments"_s}, tr(" in \"%1\"").arg(key));
                call.name = fields.string(u"name"_s).value_or(QString());
                if (object.contains(u"arguments"_s) && !object.value(u"arguments"_s).isObject())
                    fail(tr("the \"arguments\" of an entry of \"%1\" must be a JSON object").arg(key));
                call.arguments = object.value(u"arguments"_s).toObject();
                argumentPatterns(call.arguments);
            }
            if (call.name.isEmpty())
                fail(tr("every entry of \"%1\" needs a tool name").arg(key));
            if (failed())
                return {};
            calls.append(call);
        }
        return calls;
    }

    const QJsonObject &object() const { return m_object; }

private:
    QJsonObject m_object;
    QString *m_error;
};

std::optional<EvalExpectations> readExpectations(const QJsonValue &value, bool replay, QString *error)
{
    EvalExpectations expect;
    if (value.isUndefined())
        return expect;
    if (!value.isObject()) {
        *error = EvalSuite::tr("\"expect\" must be a JSON object");
        return std::nullopt;
    }
    FieldReader fields(value.toObject(), error);
    fields.knownFields(expectFields, EvalSuite::tr(" in \"expect\""));
    expect.answerContains = fields.strings(u"answer_contains"_s);
    if (const auto matches = fields.string(u"answer_matches"_s))
        expect.answerMatches = fields.pattern(u"answer_matches"_s, *matches).value_or(QString());
    expect.toolCalled = fields.toolCalls(u"tool_called"_s);
    expect.toolNotCalled = fields.strings(u"tool_not_called"_s);
    expect.retrieved = fields.strings(u"retrieved"_s);
    expect.maxIterations = fields.integer(u"max_iterations"_s, 1, 1000);
    expect.noErrorResults = fields.boolean(u"no_error_results"_s).value_or(false);
    expect.maxCostUsd = fields.number(u"max_cost_usd"_s);
    expect.outcome = fields.string(u"outcome"_s).value_or(QString());
    if (!expect.outcome.isEmpty() && !outcomeNames().contains(expect.outcome))
        fields.fail(EvalSuite::tr("unknown outcome \"%1\" (known: %2)")
                        .arg(expect.outcome, outcomeNames().join(u", "_s)));
    if (const auto reproduced = fields.boolean(u"reproduced"_s)) {
        if (!replay)
            fields.fail(EvalSuite::tr("\"reproduced\" is for cases that replay a session"));
        expect.reproduced = *reproduced;
    }
    if (fields.failed())
        return std::nullopt;
    return expect;
}

// The turn a replay case names, read from its session file.
std::optional<RecordedTurn> readRecording(const QString &path, int turn, QString *error)
{
    const TranscriptLoadResult loaded = TranscriptFile::load(path);
    if (!loaded.transcript) {
        *error = EvalSuite::tr("cannot read the session \"%1\": %2").arg(path, loaded.error);
        return std::nullopt;
    }
    QString why;
    const std::optional<QList<RecordedTurn>> turns = RecordedTurn::fromTranscript(*loaded.transcript, &why);
    if (!turns) {
        *error = EvalSuite::tr("cannot replay the session \"%1\": %2").arg(path, why);
        return std::nullopt;
    }
    if (turns->isEmpty()) {
        *error = EvalSuite::tr("the session \"%1\" has no turns to replay").arg(path);
        return std::nullopt;
    }
    if (turn > turns->size()) {
        *error
            = EvalSuite::tr("the session \"%1\" has %2 turns, not %3").arg(path).arg(turns->size()).arg(turn);
        return std::nullopt;
    }
    const RecordedTurn &recorded = turn > 0 ? turns->at(turn - 1) : turns->constLast();
    if (!recorded.isReplayable()) {
        *error = EvalSuite::tr("turn %1 of the session \"%2\" cannot be replayed: %3")
                     .arg(turn > 0 ? turn : int(turns->size()))
                     .arg(path, recorded.notReplayable);
        return std::nullopt;
    }
    return recorded;
}

std::optional<EvalCase> readCase(const QJsonObject &object, const QDir &folder, QString *error)
{
    FieldReader fields(object, error);
    EvalCase evalCase;
    if (!fields.knownFields(caseFields, {}))
        return std::nullopt;
    evalCase.name = fields.string(u"name"_s).value_or(QString());
    if (!fields.failed() && evalCase.name.isEmpty())
        fields.fail(EvalSuite::tr("a case needs a \"name\""));
    const auto session = fields.string(u"session"_s);
    if (session) {
        evalCase.sessionPath = QDir::cleanPath(folder.absoluteFilePath(*session));
        for (const QString &key : liveOnlyFields) {
            if (object.contains(key))
                fields.fail(EvalSuite::tr("a case that replays a session takes its prompt, provider, tools "
                                          "and limits from the recording: leave out \"%1\"")
                                .arg(key));
        }
        evalCase.turn = fields.integer(u"turn"_s, 1, 1'000'000).value_or(0);
        evalCase.liveTools = fields.boolean(u"live_tools"_s).value_or(false);
    } else {
        for (const QString &key : {u"turn"_s, u"live_tools"_s}) {
            if (object.contains(key))
                fields.fail(EvalSuite::tr("\"%1\" is for cases that replay a session").arg(key));
        }
        evalCase.prompt = fields.string(u"prompt"_s).value_or(QString());
        if (!fields.failed() && evalCase.prompt.isEmpty())
            fields.fail(EvalSuite::tr("a case needs a \"prompt\", or a \"session\" to replay"));
        evalCase.system = fields.string(u"system"_s).value_or(QString());
        evalCase.provider.kind = fields.string(u"provider"_s);
        evalCase.provider.baseUrl = fields.string(u"base_url"_s);
        evalCase.provider.model = fields.string(u"model"_s);
        evalCase.provider.apiKeyEnv = fields.string(u"api_key_env"_s);
        if (object.value(u"tools"_s) == QJsonValue(u"all"_s)) {
            evalCase.tools = builtinToolNames();
        } else {
            evalCase.tools = fields.strings(u"tools"_s);
            for (const QString &tool : std::as_const(evalCase.tools)) {
                if (!builtinToolNames().contains(tool))
                    fields.fail(EvalSuite::tr("unknown tool \"%1\": the built-in tools are %2")
                                    .arg(tool, builtinToolNames().join(u", "_s)));
            }
        }
        evalCase.maxIterations = fields.integer(u"max_iterations"_s, 1, 1000);
        evalCase.contextWindow = fields.integer(u"context_window"_s, 1, 100'000'000);
        if (const auto compact = fields.string(u"compact"_s)) {
            evalCase.compaction = compactionStrategyFromName(*compact);
            if (!evalCase.compaction)
                fields.fail(
                    EvalSuite::tr("\"compact\" takes \"auto\", \"trim-tool-results\", \"drop-oldest\" or "
                                  "\"off\""));
        }
        // Read now, so that a file that cannot be sent fails the suite before any case runs.
        for (const QString &path : fields.strings(u"attachments"_s)) {
            if (fields.failed())
                break;
            const AttachmentLoad load
                = AttachmentLoader::load(QDir::cleanPath(folder.absoluteFilePath(path)));
            if (load.ok())
                evalCase.attachments.append(*load.attachment);
            else
                fields.fail(load.error);
        }
        evalCase.knowledge = fields.strings(u"knowledge"_s);
        if (const auto retrieve = fields.string(u"retrieve"_s)) {
            // Whether "auto" has a base to search is known once the case's agent is (eval's set-up).
            if (*retrieve != u"tool" && *retrieve != u"auto")
                fields.fail(EvalSuite::tr("\"retrieve\" takes \"tool\" or \"auto\""));
            evalCase.retrieveBeforeTurn = *retrieve == u"auto";
        }
        // Read now, so that a bad agents file or an agent it lacks fails the suite before any request.
        if (const auto agents = fields.string(u"agents"_s); agents && !fields.failed()) {
            QString why;
            evalCase.agents = AgentRoster::load(QDir::cleanPath(folder.absoluteFilePath(*agents)), &why);
            if (!evalCase.agents)
                fields.fail(EvalSuite::tr("\"agents\": %1").arg(why));
        }
        evalCase.agent = fields.string(u"agent"_s).value_or(QString());
        if (!fields.failed() && evalCase.agents && !evalCase.agent.isEmpty()
            && !evalCase.agents->find(evalCase.agent))
            fields.fail(EvalSuite::tr("\"agent\": there is no agent named \"%1\" in its agents file")
                            .arg(evalCase.agent));
        if (const auto approve = fields.string(u"approve"_s)) {
            if (*approve != u"all" && *approve != u"none")
                fields.fail(EvalSuite::tr("\"approve\" takes \"all\" or \"none\""));
            evalCase.approveAll = *approve == u"all";
        }
    }
    evalCase.workspace
        = QDir::cleanPath(folder.absoluteFilePath(fields.string(u"workspace"_s).value_or(u"."_s)));
    if (!fields.failed() && !QFileInfo(evalCase.workspace).isDir())
        fields.fail(EvalSuite::tr("the workspace \"%1\" is not a folder").arg(evalCase.workspace));
    evalCase.timeoutSeconds = fields.integer(u"timeout_seconds"_s, 1, 86'400);
    if (fields.failed())
        return std::nullopt;

    std::optional<EvalExpectations> expect
        = readExpectations(object.value(u"expect"_s), evalCase.isReplay(), error);
    if (!expect)
        return std::nullopt;
    evalCase.expect = *expect;
    if (evalCase.isReplay()) {
        evalCase.recording = readRecording(evalCase.sessionPath, evalCase.turn, error);
        if (!evalCase.recording)
            return std::nullopt;
    }
    return evalCase;
}

} // namespace

std::optional<EvalSuite> EvalSuite::load(const QString &path, QString *error)
{
    QFile file(path);
    if (!QFileInfo(path).isFile() || !file.open(QIODevice::ReadOnly)) {
        *error = tr("cannot read the suite \"%1\": %2")
                     .arg(path, QFileInfo::exists(path) ? file.errorString() : tr("no such file"));
        return std::nullopt;
    }
    EvalSuite suite;
    suite.path = path;
    suite.name = QFileInfo(path).completeBaseName();
    std::optional<QList<EvalCase>> cases = parse(file.readAll(), QFileInfo(path).absoluteDir(), error);
    if (!cases) {
        *error = tr("%1: %2").arg(path, *error);
        return std::nullopt;
    }
    suite.cases = std::move(*cases);
    return suite;
}

std::optional<QList<EvalCase>> EvalSuite::parse(const QByteArray &bytes, const QDir &folder, QString *error)
{
    QList<EvalCase> cases;
    QSet<QString> names;
    // An editor's byte order mark is not part of the first case.
    const QList<QByteArray> lines = (bytes.startsWith("\xEF\xBB\xBF") ? bytes.mid(3) : bytes).split('\n');
    for (int i = 0; i < lines.size(); ++i) {
        const int line = i + 1;
        const QByteArray text = lines.at(i).trimmed();
        if (text.isEmpty())
            continue;
        QJsonParseError parseError;
        const QJsonDocument document = QJsonDocument::fromJson(text, &parseError);
        QString problem;
        if (parseError.error != QJsonParseError::NoError)
            problem
                = tr("not JSON: %1 at column %2").arg(parseError.errorString()).arg(parseError.offset + 1);
        else if (!document.isObject())
            problem = tr("a case must be a JSON object");
        std::optional<EvalCase> evalCase;
        if (problem.isEmpty())
            evalCase = readCase(document.object(), folder, &problem);
        if (evalCase && names.contains(evalCase->name))
            problem = tr("a case named \"%1\" came before: names must be unique").arg(evalCase->name);
        if (!problem.isEmpty()) {
            *error = tr("line %1: %2").arg(line).arg(problem);
            return std::nullopt;
        }
        evalCase->line = line;
        names.insert(evalCase->name);
        cases.append(std::move(*evalCase));
    }
    if (cases.isEmpty()) {
        *error = tr("the suite has no cases: write one JSON object per line");
        return std::nullopt;
    }
    return cases;
}

} // namespace Loopscope
