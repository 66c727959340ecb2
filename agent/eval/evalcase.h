#pragma once

#include "agent/conversation/attachment.h"
#include "agent/loop/agentconfig.h"
#include "agent/loop/agentpreset.h"
#include "agent/replay/recordedturn.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace Loopscope {

/*! "tool X was called with arguments matching …": fields the call's arguments must have. */
struct ToolCallExpectation
{
    QString name;
    // Each field must be in the call's arguments: equal to the value, a nested object that matches
    // the same way, or, for {"matches": "regex"}, a string the regular expression finds a match in.
    QJsonObject arguments;

    bool operator==(const ToolCallExpectation &) const = default;
};

/*! What a case expects of its turn; an unset expectation is not checked. */
struct EvalExpectations
{
    QStringList answerContains;
    QString answerMatches; // a regular expression; empty: not checked
    QList<ToolCallExpectation> toolCalled;
    QStringList toolNotCalled;
    // Each is part of the path of a passage some search of the turn found (a Retrieval step).
    QStringList retrieved;
    std::optional<int> maxIterations;
    bool noErrorResults = false;
    std::optional<double> maxCostUsd;
    // A TurnOutcome name; empty: any answer (answered, reflected, summarised, forced_final, handed_off).
    QString outcome;
    // Replays only: whether the replay must reproduce its recording (the default).
    bool reproduced = true;

    bool operator==(const EvalExpectations &) const = default;
};

/*!
    The provider a case names, as written; the command line's provider fills
    in what a case leaves out. Checked and turned into a profile by the
    caller, which knows the command line.
*/
struct EvalProvider
{
    std::optional<QString> kind;
    std::optional<QString> baseUrl;
    std::optional<QString> model;
    std::optional<QString> apiKeyEnv;

    // A case with its own provider or base URL describes its provider whole.
    bool namesProvider() const { return kind || baseUrl; }
    bool isEmpty() const { return !kind && !baseUrl && !model && !apiKeyEnv; }
    bool operator==(const EvalProvider &) const = default;
};

/*!
    One line of an eval suite: a question for a live model, or a recorded
    turn to replay, and what the turn must do. Paths are absolute (a suite's
    relative paths are resolved against its folder when it is read).
*/
struct EvalCase
{
    int line = 0; // in the suite file, from 1
    QString name;

    // A live case.
    QString prompt;
    QString system;
    EvalProvider provider;
    QStringList tools; // built-in tools by name
    std::optional<int> maxIterations;
    std::optional<qint64> contextWindow;          // as --context-window
    std::optional<CompactionStrategy> compaction; // as --compact
    bool approveAll = true;          // nobody is there to ask: built-in tools run unless "approve": "none"
    QList<Attachment> attachments;   // sent with the prompt, read when the suite is
    QStringList knowledge;           // knowledge bases by name, as --knowledge
    bool retrieveBeforeTurn = false; // "retrieve": "auto", as --retrieve auto
    // The case's agents file ("agents", read with the suite), and the agent of it, or of the suite's
    // (`loopscope eval --agents`), the turn runs as ("agent"; empty: the file's first).
    std::optional<AgentRoster> agents;
    QString agent;

    // A replay case: the session file and the turn read from it.
    QString sessionPath;
    int turn = 0; // from 1, as `loopscope replay --turn` counts; 0: the last turn
    bool liveTools = false;
    std::optional<RecordedTurn> recording;

    QString workspace; // the folder file tools may read
    std::optional<int> timeoutSeconds;
    EvalExpectations expect;

    bool isReplay() const { return !sessionPath.isEmpty(); }
    bool operator==(const EvalCase &) const = default;
};

} // namespace Loopscope
