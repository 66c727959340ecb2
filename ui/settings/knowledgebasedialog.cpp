#include "ui/settings/knowledgebasedialog.h"

#include "agent/providers/providerfactory.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

KnowledgeBaseDialog::KnowledgeBaseDialog(const QList<ProviderProfile> &profiles, QWidget *parent)
    : QDialog(parent)
    , m_name(new QLineEdit)
    , m_paths(new QListWidget)
    , m_removePath(new QPushButton(tr("&Remove")))
    , m_embeddingProvider(new QComboBox)
    , m_embeddingModel(new QLineEdit)
    , m_embeddingNote(new QLabel)
    , m_error(new QLabel)
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel))
{
    setWindowTitle(tr("Add Knowledge Base"));
    m_name->setPlaceholderText(tr("e.g. notes"));
    m_name->setToolTip(tr("Letters, digits, '.', '_' and '-'; how sessions and the command line name it."));
    auto *addFolder = new QPushButton(tr("Add &Folder…"));
    auto *addFiles = new QPushButton(tr("Add F&iles…"));
    connect(addFolder, &QPushButton::clicked, this, &KnowledgeBaseDialog::chooseFolder);
    connect(addFiles, &QPushButton::clicked, this, &KnowledgeBaseDialog::chooseFiles);
    connect(m_removePath, &QPushButton::clicked, this, &KnowledgeBaseDialog::removeSelectedPath);
    m_removePath->setEnabled(false);
    m_paths->setAccessibleName(tr("Folders and files"));
    connect(m_paths, &QListWidget::itemSelectionChanged, this,
            [this] { m_removePath->setEnabled(!m_paths->selectedItems().isEmpty()); });
    auto *pathButtons = new QVBoxLayout;
    pathButtons->addWidget(addFolder);
    pathButtons->addWidget(addFiles);
    pathButtons->addWidget(m_removePath);
    pathButtons->addStretch();
    auto *pathRow = new QHBoxLayout;
    pathRow->addWidget(m_paths, 1);
    pathRow->addLayout(pathButtons);

    m_embeddingProvider->addItem(tr("None: search by words only"));
    for (const ProviderProfile &profile : profiles) {
        if (profile.kind == ProviderKind::Anthropic)
            continue; // no embeddings
        m_profiles.append(profile);
        m_embeddingProvider->addItem(tr("%1 (%2)").arg(profile.name.isEmpty() ? profile.model : profile.name,
                                                       providerKindName(profile.kind)));
    }
    m_embeddingModel->setPlaceholderText(tr("e.g. nomic-embed-text, text-embedding-3-small"));
    m_embeddingNote->setWordWrap(true);
    connect(m_embeddingProvider, &QComboBox::currentIndexChanged, this,
            &KnowledgeBaseDialog::updateEmbedding);

    m_error->setWordWrap(true);
    m_error->setVisible(false);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &KnowledgeBaseDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &KnowledgeBaseDialog::reject);

    auto *form = new QFormLayout;
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("Folders and files:"), pathRow);
    form->addRow(tr("&Embeddings:"), m_embeddingProvider);
    form->addRow(tr("Embedding &model:"), m_embeddingModel);
    form->addRow(QString(), m_embeddingNote);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);
    updateEmbedding();
}

void KnowledgeBaseDialog::updateEmbedding()
{
    const int chosen = m_embeddingProvider->currentIndex() - 1;
    m_embeddingModel->setEnabled(chosen >= 0);
    if (chosen < 0) {
        m_embeddingNote->setText(tr("Passages are found by the words they share with the question."));
        return;
    }
    const ProviderProfile &profile = m_profiles.at(chosen);
    const QString variable = profile.apiKeyEnv.isEmpty() ? defaultApiKeyEnv(profile.kind) : profile.apiKeyEnv;
    m_embeddingNote->setText(
        profile.needsKey()
            ? tr("Passages are also found by meaning. The key is read as for chat, from this provider's "
                 "keychain entry or key file, else the environment variable %1, whenever the base is "
                 "indexed or searched; it is never stored with the base.")
                  .arg(variable)
            : tr("Passages are also found by meaning."));
}

KnowledgeBaseDefinition KnowledgeBaseDialog::definition() const
{
    KnowledgeBaseDefinition definition;
    definition.name = m_name->text().trimmed();
    for (int i = 0; i < m_paths->count(); ++i)
        definition.paths.append(m_paths->item(i)->data(Qt::UserRole).toString());
    const int chosen = m_embeddingProvider->currentIndex() - 1;
    if (chosen >= 0 && !m_embeddingModel->text().trimmed().isEmpty()) {
        const ProviderProfile &profile = m_profiles.at(chosen);
        const QString variable
            = profile.apiKeyEnv.isEmpty() ? defaultApiKeyEnv(profile.kind) : profile.apiKeyEnv;
        definition.embedding = {profile.kind, profile.baseUrl, m_embeddingModel->text().trimmed(),
                                profile.needsKey() ? variable : QString(), profile.id};
    }
    return definition;
}

void KnowledgeBaseDialog::setName(const QString &name)
{
    m_name->setText(name);
}

void KnowledgeBaseDialog::addPaths(const QStringList &paths)
{
    for (const QString &path : paths) {
        const QString clean = QDir::cleanPath(QDir(path).absolutePath());
        if (!m_paths->findItems(QDir::toNativeSeparators(clean), Qt::MatchExactly).isEmpty())
            continue;
        auto *item = new QListWidgetItem(QDir::toNativeSeparators(clean), m_paths);
        item->setData(Qt::UserRole, clean);
    }
}

void KnowledgeBaseDialog::chooseFolder()
{
    auto *dialog = new QFileDialog(this, tr("Add a Folder to the Knowledge Base"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::Directory);
    dialog->setOption(QFileDialog::ShowDirsOnly);
    connect(dialog, &QFileDialog::filesSelected, this, &KnowledgeBaseDialog::addPaths);
    dialog->open();
}

void KnowledgeBaseDialog::chooseFiles()
{
    auto *dialog = new QFileDialog(this, tr("Add Files to the Knowledge Base"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::ExistingFiles);
    connect(dialog, &QFileDialog::filesSelected, this, &KnowledgeBaseDialog::addPaths);
    dialog->open();
}

void KnowledgeBaseDialog::removeSelectedPath()
{
    qDeleteAll(m_paths->selectedItems());
}

QString KnowledgeBaseDialog::validationError() const
{
    const KnowledgeBaseDefinition base = definition();
    if (!KnowledgeLibrary::isValidName(base.name))
        return tr(
            "Give the base a name of letters, digits, '.', '_' and '-' (at most 64, not starting with '.').");
    if (base.paths.isEmpty())
        return tr("Add at least one folder or file.");
    if (m_embeddingProvider->currentIndex() > 0 && m_embeddingModel->text().trimmed().isEmpty())
        return tr("Name the embedding model, or choose None.");
    return {};
}

void KnowledgeBaseDialog::accept()
{
    if (const QString error = validationError(); !error.isEmpty()) {
        m_error->setText(error);
        m_error->setVisible(true);
        return;
    }
    QDialog::accept();
}

} // namespace Loopscope::Ui
