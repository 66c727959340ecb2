#pragma once

#include "agent/loop/agentshields.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;
QT_END_NAMESPACE

namespace Loopscope::Ui {

/*!
    Edits one agent's shields: the rule shield's rules (a keyword or regular
    expression, the stages it looks at, the tools it is limited to, the
    message it blocks with) and the model shield (a Llama Guard style model
    asked about the question and the answer, its prompt template with the
    categories, and what an unclear verdict does). A value editor: setShields()
    shows, shields() reads back; whoever embeds it (Settings → Loop, the
    Agents page) stores the value.
*/
class ShieldsEditor final : public QWidget
{
    Q_OBJECT

public:
    explicit ShieldsEditor(QWidget *parent = nullptr);

    // The saved provider profiles the model shield may ask (a Llama Guard model often runs elsewhere
    // than the chat model); before setShields().
    void setProfileNames(const QStringList &names);
    void setShields(const AgentShields &shields);
    // What the editor shows; rows without a pattern are left out.
    AgentShields shields() const;
    // Empty when shields() can be stored; else a sentence naming the rule or field to fix.
    QString problem() const;
    // Puts the cursor where problem() points.
    void focusProblem();

signals:
    void changed();

private:
    enum Column {
        PatternColumn,
        RegexColumn,
        InputColumn,
        ToolCallColumn,
        OutputColumn,
        ToolsColumn,
        MessageColumn,
        ColumnCount
    };

    void addRule(const RuleShield::Rule &rule);
    void removeSelectedRules();
    void updateModelShieldControls();
    // Selects \a profile in the provider box, listing one that is not saved as such.
    void showProvider(const QString &profile);
    void showProblem();
    // The first row whose rule cannot be stored, with why; -1 when every row can.
    int badRow(QString *why) const;

    QTableWidget *m_rules;
    QPushButton *m_addRule;
    QPushButton *m_removeRule;
    QCheckBox *m_modelEnabled;
    QLineEdit *m_modelName;
    QComboBox *m_provider;
    QLineEdit *m_model;
    QCheckBox *m_checkInput;
    QCheckBox *m_checkOutput;
    QComboBox *m_unclear;
    QPlainTextEdit *m_template;
    QPushButton *m_defaultTemplate;
    QLabel *m_problem;
};

} // namespace Loopscope::Ui
