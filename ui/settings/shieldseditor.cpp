#include "ui/settings/shieldseditor.h"

#include "ui/settings/settingswidgets.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

QTableWidgetItem *checkItem(bool checked)
{
    auto *item = new QTableWidgetItem;
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
    item->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
    return item;
}

bool isChecked(const QTableWidget *table, int row, int column)
{
    const QTableWidgetItem *item = table->item(row, column);
    return item && item->checkState() == Qt::Checked;
}

QString textAt(const QTableWidget *table, int row, int column)
{
    const QTableWidgetItem *item = table->item(row, column);
    return item ? item->text() : QString();
}

} // namespace

ShieldsEditor::ShieldsEditor(QWidget *parent)
    : QWidget(parent)
    , m_rules(named(new QTableWidget(0, ColumnCount, this), u"shieldRulesTable"_s, tr("Shield rules")))
    , m_addRule(named(new QPushButton(tr("Add rule"), this), u"addShieldRuleButton"_s, tr("Add rule")))
    , m_removeRule(
          named(new QPushButton(tr("Remo&ve rule"), this), u"removeShieldRuleButton"_s, tr("Remove rule")))
    , m_modelEnabled(
          named(new QCheckBox(tr("Ask a model whether the question and the answer are sa&fe"), this),
                u"modelShieldCheck"_s, tr("Model shield")))
    , m_modelName(named(new QLineEdit(this), u"modelShieldNameEdit"_s, tr("Model shield name")))
    , m_provider(
          named(new QComboBox(this), u"modelShieldProviderCombo"_s, tr("Model shield provider profile")))
    , m_model(named(new QLineEdit(this), u"modelShieldModelEdit"_s, tr("Model shield model")))
    , m_checkInput(named(new QCheckBox(tr("T&he question"), this), u"modelShieldInputCheck"_s,
                         tr("Check the question")))
    , m_checkOutput(
          named(new QCheckBox(tr("The ans&wer"), this), u"modelShieldOutputCheck"_s, tr("Check the answer")))
    , m_unclear(named(new QComboBox(this), u"modelShieldUnclearCombo"_s, tr("When the verdict is unclear")))
    , m_template(named(new QPlainTextEdit(this), u"modelShieldTemplateEdit"_s, tr("Model shield prompt")))
    , m_defaultTemplate(named(new QPushButton(tr("Restore the &default prompt"), this),
                              u"modelShieldDefaultTemplateButton"_s, tr("Restore the default prompt")))
    , m_problem(new QLabel(this))
{
    m_rules->setHorizontalHeaderLabels({tr("Keyword or pattern"), tr("Regular expression"), tr("Question"),
                                        tr("Tool arguments"), tr("Answer"), tr("Only these tools"),
                                        tr("Message when it blocks")});
    m_rules->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_rules->horizontalHeader()->setStretchLastSection(true);
    m_rules->verticalHeader()->hide();
    m_rules->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_rules->setToolTip(
        tr("The first rule that matches blocks the step. A keyword matches as a whole word in any "
           "case; a regular expression as written. \"Only these tools\": tool names separated by "
           "commas, empty for every tool."));
    m_unclear->addItem(tr("Block"), u"block"_s);
    m_unclear->addItem(tr("Allow"), u"allow"_s);
    m_modelName->setPlaceholderText(ModelShield().name);
    m_provider->addItem(tr("The conversation's own provider"), QString());
    m_model->setPlaceholderText(tr("The provider's own model"));
    m_template->setTabChangesFocus(true);
    m_template->setToolTip(tr("The categories the model judges by and how it must answer (\"safe\", or "
                              "\"unsafe\" and the categories). {role} becomes User or Agent, {conversation} "
                              "the question (and the answer)."));
    m_problem->setWordWrap(true);
    m_problem->hide();

    auto *ruleButtons = new QHBoxLayout;
    ruleButtons->addWidget(m_addRule);
    ruleButtons->addWidget(m_removeRule);
    ruleButtons->addStretch();
    auto *stages = new QHBoxLayout;
    stages->addWidget(m_checkInput);
    stages->addWidget(m_checkOutput);
    stages->addStretch();
    auto *model = new QFormLayout;
    model->addRow(tr("&Name:"), m_modelName);
    // No mnemonic: every letter of its label is taken on the pages that embed the editor.
    model->addRow(tr("Provider profile:"), m_provider);
    model->addRow(tr("&Guard model:"), m_model);
    model->addRow(tr("Checks:"), stages);
    model->addRow(tr("When un&clear:"), m_unclear);
    model->addRow(tr("Classif&ier prompt:"), m_template);
    model->addRow(QString(), m_defaultTemplate);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_rules);
    layout->addLayout(ruleButtons);
    layout->addWidget(m_modelEnabled);
    layout->addLayout(model);
    layout->addWidget(hintLabel(
        tr("A model shield is a model call before the first request and after the answer: its tokens "
           "and cost count for the turn, and the trace shows each check with its call."),
        this));
    layout->addWidget(m_problem);

    connect(m_addRule, &QPushButton::clicked, this, [this] {
        addRule({});
        m_rules->setCurrentCell(m_rules->rowCount() - 1, PatternColumn);
        m_rules->editItem(m_rules->currentItem());
    });
    connect(m_removeRule, &QPushButton::clicked, this, &ShieldsEditor::removeSelectedRules);
    connect(m_rules, &QTableWidget::itemChanged, this, [this] {
        showProblem();
        emit changed();
    });
    connect(m_modelEnabled, &QCheckBox::toggled, this, [this] {
        updateModelShieldControls();
        showProblem();
        emit changed();
    });
    connect(m_defaultTemplate, &QPushButton::clicked, this,
            [this] { m_template->setPlainText(ModelShield::defaultTemplate()); });
    for (QLineEdit *edit : {m_modelName, m_model})
        connect(edit, &QLineEdit::textEdited, this, &ShieldsEditor::changed);
    for (QCheckBox *box : {m_checkInput, m_checkOutput}) {
        connect(box, &QCheckBox::toggled, this, [this] {
            showProblem();
            emit changed();
        });
    }
    connect(m_unclear, &QComboBox::currentIndexChanged, this, &ShieldsEditor::changed);
    connect(m_provider, &QComboBox::currentIndexChanged, this, &ShieldsEditor::changed);
    connect(m_template, &QPlainTextEdit::textChanged, this, [this] {
        showProblem();
        emit changed();
    });
    setShields({});
}

void ShieldsEditor::setProfileNames(const QStringList &names)
{
    const QString shown = m_provider->currentData().toString();
    const QSignalBlocker blocker(m_provider);
    while (m_provider->count() > 1)
        m_provider->removeItem(1);
    for (const QString &name : names)
        m_provider->addItem(name, name);
    showProvider(shown);
}

void ShieldsEditor::showProvider(const QString &profile)
{
    const QSignalBlocker blocker(m_provider);
    if (m_provider->findData(profile) < 0)
        m_provider->addItem(tr("%1 (no such profile)").arg(profile), profile);
    m_provider->setCurrentIndex(m_provider->findData(profile));
}

void ShieldsEditor::setShields(const AgentShields &shields)
{
    const QSignalBlocker blockRules(m_rules);
    m_rules->setRowCount(0);
    for (const RuleShield::Rule &rule : shields.rules)
        addRule(rule);
    const ModelShield model = shields.model.value_or(ModelShield());
    m_modelEnabled->setChecked(shields.model.has_value());
    m_modelName->setText(model.name == ModelShield().name ? QString() : model.name);
    showProvider(model.provider);
    m_model->setText(model.model);
    m_checkInput->setChecked(model.stages.contains(ShieldStage::Input));
    m_checkOutput->setChecked(model.stages.contains(ShieldStage::Output));
    m_unclear->setCurrentIndex(model.unclear == ModelShield::Unclear::Allow ? 1 : 0);
    m_template->setPlainText(model.promptTemplate);
    updateModelShieldControls();
    showProblem();
}

AgentShields ShieldsEditor::shields() const
{
    AgentShields shields;
    for (int row = 0; row < m_rules->rowCount(); ++row) {
        RuleShield::Rule rule;
        rule.pattern = textAt(m_rules, row, PatternColumn);
        if (rule.pattern.isEmpty())
            continue;
        rule.kind = isChecked(m_rules, row, RegexColumn) ? RuleShield::Rule::Kind::RegularExpression
                                                         : RuleShield::Rule::Kind::Keyword;
        rule.stages.clear();
        if (isChecked(m_rules, row, InputColumn))
            rule.stages.append(ShieldStage::Input);
        if (isChecked(m_rules, row, ToolCallColumn))
            rule.stages.append(ShieldStage::ToolCall);
        if (isChecked(m_rules, row, OutputColumn))
            rule.stages.append(ShieldStage::Output);
        for (const QString &tool : textAt(m_rules, row, ToolsColumn).split(u',', Qt::SkipEmptyParts))
            rule.tools.append(tool.trimmed());
        rule.message = textAt(m_rules, row, MessageColumn).trimmed();
        shields.rules.append(rule);
    }
    if (m_modelEnabled->isChecked()) {
        ModelShield model;
        if (!m_modelName->text().trimmed().isEmpty())
            model.name = m_modelName->text().trimmed();
        model.provider = m_provider->currentData().toString();
        model.model = m_model->text().trimmed();
        model.stages.clear();
        if (m_checkInput->isChecked())
            model.stages.append(ShieldStage::Input);
        if (m_checkOutput->isChecked())
            model.stages.append(ShieldStage::Output);
        model.promptTemplate = m_template->toPlainText();
        model.unclear = m_unclear->currentData() == u"allow"_s ? ModelShield::Unclear::Allow
                                                               : ModelShield::Unclear::Block;
        shields.model = model;
    }
    return shields;
}

int ShieldsEditor::badRow(QString *why) const
{
    for (int row = 0; row < m_rules->rowCount(); ++row) {
        const QString pattern = textAt(m_rules, row, PatternColumn);
        if (pattern.isEmpty())
            continue;
        const bool anyStage = isChecked(m_rules, row, InputColumn) || isChecked(m_rules, row, ToolCallColumn)
                              || isChecked(m_rules, row, OutputColumn);
        if (!anyStage) {
            *why = tr("Rule %1 (\"%2\") looks at no stage: tick the question, the tool arguments or the "
                      "answer.")
                       .arg(row + 1)
                       .arg(pattern);
            return row;
        }
        RuleShield::Rule rule;
        rule.pattern = pattern;
        rule.kind = isChecked(m_rules, row, RegexColumn) ? RuleShield::Rule::Kind::RegularExpression
                                                         : RuleShield::Rule::Kind::Keyword;
        if (const std::optional<QString> error = RuleShield().addRule(rule)) {
            *why = tr("Rule %1: %2").arg(row + 1).arg(*error);
            return row;
        }
    }
    return -1;
}

QString ShieldsEditor::problem() const
{
    QString why;
    if (badRow(&why) >= 0)
        return why;
    if (!m_modelEnabled->isChecked())
        return {};
    if (!m_checkInput->isChecked() && !m_checkOutput->isChecked())
        return tr("The model shield checks nothing: tick the question, the answer or both.");
    if (!m_template->toPlainText().contains(u"{conversation}"_s))
        return tr("The model shield's prompt must contain {conversation}, where the message to judge goes.");
    return {};
}

void ShieldsEditor::focusProblem()
{
    QString why;
    if (const int row = badRow(&why); row >= 0) {
        m_rules->setCurrentCell(row, PatternColumn);
        m_rules->setFocus();
    } else if (m_modelEnabled->isChecked() && !m_checkInput->isChecked() && !m_checkOutput->isChecked()) {
        m_checkInput->setFocus();
    } else {
        m_template->setFocus();
    }
}

void ShieldsEditor::addRule(const RuleShield::Rule &rule)
{
    const QSignalBlocker blocker(m_rules);
    const int row = m_rules->rowCount();
    m_rules->insertRow(row);
    m_rules->setItem(row, PatternColumn, new QTableWidgetItem(rule.pattern));
    m_rules->setItem(row, RegexColumn, checkItem(rule.kind == RuleShield::Rule::Kind::RegularExpression));
    m_rules->setItem(row, InputColumn, checkItem(rule.stages.contains(ShieldStage::Input)));
    m_rules->setItem(row, ToolCallColumn, checkItem(rule.stages.contains(ShieldStage::ToolCall)));
    m_rules->setItem(row, OutputColumn, checkItem(rule.stages.contains(ShieldStage::Output)));
    m_rules->setItem(row, ToolsColumn, new QTableWidgetItem(rule.tools.join(u", "_s)));
    m_rules->setItem(row, MessageColumn, new QTableWidgetItem(rule.message));
}

void ShieldsEditor::removeSelectedRules()
{
    QList<int> rows;
    for (const QModelIndex &index : m_rules->selectionModel()->selectedRows())
        rows.append(index.row());
    if (rows.isEmpty() && m_rules->currentRow() >= 0)
        rows.append(m_rules->currentRow());
    std::sort(rows.begin(), rows.end(), std::greater<>());
    for (int row : std::as_const(rows))
        m_rules->removeRow(row);
    showProblem();
    emit changed();
}

void ShieldsEditor::updateModelShieldControls()
{
    const bool enabled = m_modelEnabled->isChecked();
    for (QWidget *widget :
         std::initializer_list<QWidget *>{m_modelName, m_provider, m_model, m_checkInput, m_checkOutput,
                                          m_unclear, m_template, m_defaultTemplate})
        widget->setEnabled(enabled);
}

void ShieldsEditor::showProblem()
{
    const QString text = problem();
    m_problem->setText(text);
    m_problem->setVisible(!text.isEmpty());
}

} // namespace Loopscope::Ui
