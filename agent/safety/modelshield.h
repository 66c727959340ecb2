#pragma once

#include "agent/safety/shield.h"

#include <QCoreApplication>
#include <QList>
#include <QStringList>

#include <optional>

namespace Loopscope {

/*!
    A model asked whether a message is safe: the Llama Guard pattern of Llama
    Stack's input and output shields. The agent sends the prompt template with
    the conversation filled in to the session's provider, or to the saved
    provider profile this shield names (a Llama Guard model usually runs
    elsewhere than the chat model), with this shield's model when it names
    one, and reads the first line of the answer: "safe",
    "unsafe" (the categories violated on the next line) or anything else,
    which is unclear and allowed or blocked as the shield says. It is a value:
    the agent makes the call, so that it is asynchronous, nested in the trace,
    counted in the turn and cancelled with it.
*/
struct ModelShield
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::ModelShield)

public:
    enum class Unclear { Block, Allow };
    enum class Verdict { Safe, Unsafe, Unclear };
    struct Reading
    {
        Verdict verdict = Verdict::Unclear;
        QStringList categories; // "S1", "S10", ... when unsafe
        bool operator==(const Reading &) const = default;
    };

    QString name = QStringLiteral("guard");
    QString model; // empty: the model of its provider (the session's, or its profile's)
    // The saved provider profile it asks, by name, as an agent's "provider"; empty: the session's.
    QString provider;
    QList<ShieldStage> stages{ShieldStage::Input, ShieldStage::Output};
    // {role} becomes "User" or "Agent" (whose message is judged), {conversation} the exchange.
    QString promptTemplate = defaultTemplate();
    Unclear unclear = Unclear::Block;

    bool operator==(const ModelShield &) const = default;

    // The prompt for judging \a content at \a stage; at the output stage \a input is the question.
    QString prompt(ShieldStage stage, const QString &input, const QString &content) const;
    // The model's answer as a verdict; anything but "safe" or "unsafe" on its first line is unclear.
    static Reading read(const QString &answer);
    // The verdict in words: the reason recorded in the trace and shown when it blocks.
    ShieldVerdict verdictFor(const Reading &reading) const;

    // Llama Guard 3's prompt with its hazard categories S1–S14.
    static QString defaultTemplate();
    // The name of category \a code in the default template ("S1" → "Violent Crimes"), or empty.
    static QString categoryName(const QString &code);
};

} // namespace Loopscope
